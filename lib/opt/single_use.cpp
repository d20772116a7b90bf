// Forward substitution of single-use temporaries (Fig. 12: let x = e1 in
// e2 ~> e2[e1/x] when x occurs once): a temporary introduced by UNF or a
// cotangent is folded into its only use when that use is in the same block
// (never into a branch) and the result stays small. The source's own
// variables stay named const locals. Then consecutive += updates of one
// element merge into one.
#include "support.h"
#include "unfad/opt/passes.h"
#include "unfad/ir/equal.h"
#include "unfad/ir/mutator.h"

#include <unordered_map>

namespace unfad::opt {

using namespace unfad::ir;

namespace {

class SingleUse {
public:
  explicit SingleUse(const std::vector<std::string> &keep) : keep_(keep.begin(), keep.end()) {}

  Expr run(const Expr &e) {
    countAll(e);
    return rewrite(e);
  }

private:
  std::unordered_map<std::string, int> uses_;
  std::unordered_set<std::string> keep_;
  static constexpr size_t kMaxSize = 9;

  void countAll(const Expr &e) {
    struct Count : Visitor {
      std::unordered_map<std::string, int> *uses;
      void visit(const Var *v) override { ++(*uses)[v->name]; }
    } count;
    count.uses = &uses_;
    count.visitExpr(e);
  }

  bool temporary(const std::string &n) const {
    if (keep_.count(n)) return false;
    return n == "t" || n.rfind("t_", 0) == 0 || n.rfind("d_", 0) == 0;
  }

  // Occurrences of `n` outside nested blocks (if/let/loops) of `e`; calls
  // and pullbacks keep their arguments named.
  static int shallow(const Expr &e, const std::string &n) {
    auto sum = [&](const std::vector<Expr> &es) {
      int k = 0;
      for (auto &a : es) k += shallow(a, n);
      return k;
    };
    switch (e->kind) {
    case Kind::Var: return e->as<Var>()->name == n;
    case Kind::Prim: return sum(e->as<Prim>()->args);
    case Kind::Proj: return shallow(e->as<Proj>()->tuple, n);
    case Kind::Index: return shallow(e->as<ir::Index>()->array, n) + shallow(e->as<ir::Index>()->index, n);
    case Kind::Store: return shallow(e->as<Store>()->index, n) + shallow(e->as<Store>()->value, n);
    case Kind::Tuple: return sum(e->as<ir::Tuple>()->elems);
    case Kind::View: return shallow(e->as<ir::View>()->array, n) + shallow(e->as<ir::View>()->offset, n);
    case Kind::Const: case Kind::Let: case Kind::If: case Kind::Lambda: case Kind::Call: case Kind::Opaque: case Kind::Pullback:
    case Kind::App: case Kind::Size: case Kind::NewArray: case Kind::Fold: case Kind::While: case Kind::Build:
    case Kind::Sum: case Kind::Throw: case Kind::Effect: case Kind::Resize:
      return 0;
    }
    return 0;
  }

  Expr rewrite(const Expr &e) {
    if (auto i = e->as<If>()) {
      Expr t = rewrite(i->thenE), f = rewrite(i->elseE);
      return t == i->thenE && f == i->elseE ? e : If::make(i->cond, t, f);
    }
    if (auto f = e->as<Fold>()) {
      Expr b = rewrite(f->body);
      return b == f->body ? e : Fold::make(f->lo, f->hi, f->init, f->index, f->state, b, f->reversed);
    }
    if (auto w = e->as<While>()) {
      Expr c = rewrite(w->cond), b = rewrite(w->body);
      return c == w->cond && b == w->body ? e : While::make(w->init, w->state, c, b);
    }
    if (!e->is<Let>()) return e;
    Lets lets;
    Expr c = e;
    while (auto l = c->as<Let>()) {
      lets.push_back({l->name, rewrite(l->value)});
      c = l->body;
    }
    Expr body = rewrite(c);
    std::vector<bool> gone(lets.size(), false);
    substituteTemporaries(lets, body, gone);
    mergeAdds(lets, gone);
    for (size_t i = lets.size(); i-- > 0;)
      if (!gone[i]) body = Let::make(lets[i].first, lets[i].second, body);
    return body;
  }

  void substituteTemporaries(Lets &lets, Expr &body, std::vector<bool> &gone) {
    for (size_t i = 0; i < lets.size(); ++i) {
      auto &[name, value] = lets[i];
      // (a row m[i] the tool named `m_row` (unf.cpp) is as much a temporary;
      // not a user's `prev_row`)
      const auto *table = value->is<ir::Index>() && value->type->isArray() ? value->as<ir::Index>()->array->as<Var>() : nullptr;
      const bool row = table && name.rfind(table->name + "_row", 0) == 0;
      if (!(temporary(name) || (row && !keep_.count(name))) || uses_[name] != 1 || !(value->is<Prim>() || value->is<ir::Index>()) ||
          size(value) > kMaxSize)
        continue;
      // Its single use: the first later let (or the body) that mentions it;
      // a memory read never moves past a write to the array it reads.
      const MemoryEffects reader = memoryEffects(value);
      auto clobbers = [&](const Expr &later) { return !reader.reads.empty() && memoryEffects(later).clobbers(reader); };
      bool done = false;
      for (size_t j = i + 1; j < lets.size() && !done; ++j) {
        if (gone[j]) continue;
        if (countUses(lets[j].second, name) == 0) {
          if (clobbers(lets[j].second)) done = true;
          continue;
        }
        if (shallow(lets[j].second, name) == 1 && !clobbers(lets[j].second)) {
          lets[j].second = substitute(lets[j].second, name, value);
          gone[i] = true;
        }
        done = true;
      }
      if (!done && shallow(body, name) == 1) {
        body = substitute(body, name, value);
        gone[i] = true;
      }
    }
  }

  // a[i] += u; (lets not touching a); a[i] += v  ~>  (lets); a[i] += u + v
  // (one update per element)
  static void mergeAdds(Lets &lets, std::vector<bool> &gone) {
    for (size_t i = 0; i < lets.size(); ++i) {
      if (gone[i]) continue;
      auto s1 = lets[i].second->as<Store>();
      if (!s1 || s1->mode != Store::Mode::Add || !s1->value->type->isScalar()) continue;
      // the buffer: a variable, or a row d_a[i] of one (i an atom)
      const Node *root = s1->array.get();
      while (auto ix = root->as<ir::Index>()) {
        if (!isAtom(ix->index)) break;
        root = ix->array.get();
      }
      if (!root->is<Var>()) continue;
      const std::string &a = root->as<Var>()->name;
      size_t j = i + 1;
      while (j < lets.size() &&
             (gone[j] || (!lets[j].second->is<Store>() && !mayWrite(lets[j].second) && countUses(lets[j].second, a) == 0)))
        ++j;
      if (j == lets.size()) continue;
      auto s2 = lets[j].second->as<Store>();
      if (!s2 || s2->mode != Store::Mode::Add || !alphaEqual(s1->array, s2->array) || !alphaEqual(s1->index, s2->index) ||
          s1->path != s2->path)
        continue;
      lets[j].second = Store::make(s1->array, s1->index, simplify(Op::Add, {s1->value, s2->value}, nullptr), Store::Mode::Add, s1->path);
      gone[i] = true;
    }
  }
};

} // namespace

Expr singleUse(const Expr &e, const PassContext &context, bool *changed) {
  Expr r = SingleUse(context.reserved).run(e);
  if (changed) *changed = r != e;
  return r;
}

} // namespace unfad::opt
