// Arrays a loop's iterations use each on their own: what lets loop fusion
// run an adjoint sweep's iteration right after the forward iteration it
// belongs to (loop_fusion.cpp), though both write the array.
//
// Each question is answered on a loop body's top-level lets, looking into
// nested loops, with intervals of elements [lo, hi) covered by stores at
// constant indices and by loops storing at their own index.
#include "support.h"
#include "unfad/ir/effects.h"
#include "unfad/ir/equal.h"
#include "unfad/ir/mutator.h"

#include <algorithm>
#include <functional>
#include <optional>

namespace unfad::opt {

using namespace unfad::ir;

namespace {

bool writes(const Expr &e, const std::string &array) { return memoryEffects(e).writes.count(array) > 0; }

// The elements known stored since the last reset, as [lo, hi) intervals
// over the body's scalar lets resolved.
class Coverage {
public:
  void add(Expr lo, Expr hi) { intervals_.push_back({resolve(lo), resolve(hi)}); }
  void clear() { intervals_.clear(); }
  void define(const std::string &name, const Expr &value) { scalars_.define(name, value); }
  Expr resolve(Expr e) const { return scalars_.resolve(std::move(e)); }
  // Whether the intervals chain from 0 to `length`.
  bool full(const Expr &length) const {
    const Expr hi = resolve(length);
    for (auto &[lo, h] : intervals_) {
      if (!alphaEqual(h, hi)) continue;
      Expr at = lo;
      for (bool merged = true; merged;) {
        merged = false;
        for (auto &[l, h2] : intervals_)
          if (alphaEqual(h2, at) && !alphaEqual(l, at)) {
            at = l;
            merged = true;
          }
      }
      if (auto zero = at->as<Const>(); zero && zero->ivalue == 0) return true;
    }
    return false;
  }

private:
  std::vector<std::pair<Expr, Expr>> intervals_;
  ScalarLets scalars_;
};

// The interval a top-level let stores whole when it is `array[k] = v` (k
// constant) or a loop whose body stores `array[i]` at its index i once and
// touches the array nowhere else; `last` (if given) checks that store.
std::optional<std::pair<Expr, Expr>> storedInterval(const Expr &value, const std::string &array, const Coverage &cov,
                                                    const std::function<bool(const Store *)> &ok) {
  if (auto s = storeInto(value, array)) {
    auto k = cov.resolve(s->index)->as<Const>();
    if (!k || !ok(s)) return std::nullopt;
    return std::make_pair(Const::makeInt(k->ivalue), Const::makeInt(k->ivalue + 1));
  }
  auto f = value->as<Fold>();
  if (!f || touches(f->lo, array) || touches(f->hi, array) || touches(f->init, array)) return std::nullopt;
  LetChain inner = unzipLets(f->body);
  const Store *found = nullptr;
  for (auto &[name, v] : inner.lets) {
    if (!touches(v, array)) continue;
    auto s = storeInto(v, array);
    if (found || !s || !isIndexOf(s->index, *f) || !ok(s)) return std::nullopt;
    found = s;
  }
  if (!found || touches(inner.tail, array)) return std::nullopt;
  return std::make_pair(f->lo, f->hi);
}

} // namespace

bool rewrittenBeforeRead(const Expr &body, const std::string &array, const Expr &length) {
  Coverage cov;
  LetChain chain = unzipLets(body);
  auto plainStore = [&](const Store *s) { return s->mode == Store::Mode::Set && !touches(s->value, array); };
  for (auto &[name, value] : chain.lets) {
    cov.define(name, value);
    if (!touches(value, array) || cov.full(length)) continue;
    if (auto interval = storedInterval(value, array, cov, plainStore)) {
      cov.add(interval->first, interval->second);
      continue;
    }
    // A loop whose every iteration reads only what it wrote itself.
    auto f = value->as<Fold>();
    if (f && !touches(f->lo, array) && !touches(f->hi, array) && !touches(f->init, array) &&
        rewrittenBeforeRead(f->body, array, length))
      continue;
    return false;
  }
  return !touches(chain.tail, array) || cov.full(length);
}

bool leftZero(const Expr &body, const std::string &array, const Expr &length) {
  Coverage cov;
  bool zero = true;
  LetChain chain = unzipLets(body);
  for (auto &[name, value] : chain.lets) {
    cov.define(name, value);
    if (!writes(value, array)) continue;
    // (a loop may add into array[i] before it resets it: only its last
    // store into the array must be the zero)
    std::optional<std::pair<Expr, Expr>> interval;
    if (auto s = storeInto(value, array)) {
      if (s->mode == Store::Mode::Set && isConst(s->value, 0.0)) interval = storedInterval(value, array, cov, [](auto) { return true; });
    } else if (auto f = value->as<Fold>(); f && !writes(f->lo, array) && !writes(f->hi, array) && !writes(f->init, array)) {
      LetChain inner = unzipLets(f->body);
      const Store *last = nullptr;
      bool atIndex = !writes(inner.tail, array);
      for (auto &[n, v] : inner.lets) {
        if (!writes(v, array)) continue;
        auto s = storeInto(v, array);
        atIndex = atIndex && s && isIndexOf(s->index, *f);
        last = s;
      }
      if (atIndex && last && last->mode == Store::Mode::Set && isConst(last->value, 0.0))
        interval = std::make_pair(f->lo, f->hi);
      else if (leftZero(f->body, array, length))
        continue; // zero before: zero after (each iteration ends with it zero)
    }
    if (interval) {
      cov.add(interval->first, interval->second);
      zero = zero || cov.full(length);
      continue;
    }
    zero = false;
    cov.clear();
  }
  return zero && !writes(chain.tail, array);
}

namespace {

// `e` as add(mul(i, n), rest) in either operand order: (n, rest).
std::optional<std::pair<Expr, Expr>> blockForm(const Expr &e, const std::string &i) {
  auto add = e->as<Prim>();
  if (!add || add->op != Op::Add) return std::nullopt;
  for (int side = 0; side < 2; ++side) {
    auto mul = add->args[side]->as<Prim>();
    if (!mul || mul->op != Op::Mul) continue;
    for (int m = 0; m < 2; ++m)
      if (auto v = mul->args[m]->as<Var>(); v && v->name == i)
        return std::make_pair(mul->args[1 - m], add->args[1 - side]);
  }
  return std::nullopt;
}

} // namespace

bool inIterationBlocks(const Expr &body, const std::string &index, const std::string &array,
                       const std::function<bool(const Expr &hi, const Expr &n)> &atMost, Expr *blockLength) {
  struct Walk : Visitor {
    const std::string *index, *array;
    const std::function<bool(const Expr &, const Expr &)> *atMost;
    std::vector<const Fold *> folds;
    Expr n;
    bool ok = true;
    bool named(const Expr &a) const {
      auto v = a->as<Var>();
      return v && v->name == *array;
    }
    void access(const Expr &at) {
      auto form = blockForm(at, *index);
      if (!form || (n && !alphaEqual(n, form->first))) {
        ok = false;
        return;
      }
      n = form->first;
      // the rest: a nested loop's index, the loop starting at 0 or later
      // and ending at most at n
      auto v = form->second->as<Var>();
      auto f = std::find_if(folds.begin(), folds.end(), [&](const Fold *g) { return v && g->index == v->name; });
      auto lo = f == folds.end() ? nullptr : (*f)->lo->as<Const>();
      if (!lo || lo->ivalue < 0 || !(*atMost)((*f)->hi, n)) ok = false;
    }
    void visit(const Index *e) override {
      if (!named(e->array)) return Visitor::visit(e);
      access(e->index);
      visitExpr(e->index);
    }
    void visit(const Store *e) override {
      if (!named(e->array)) return Visitor::visit(e);
      access(e->index);
      visitExpr(e->index);
      visitExpr(e->value);
    }
    void visit(const Var *e) override { ok = ok && e->name != *array; } // passed whole, aliased
    void visit(const Fold *e) override {
      folds.push_back(e);
      Visitor::visit(e);
      folds.pop_back();
    }
  } walk;
  walk.index = &index;
  walk.array = &array;
  walk.atMost = &atMost;
  walk.visitExpr(body);
  if (blockLength) *blockLength = walk.n;
  return walk.ok && walk.n;
}

Expr ownBlockOnly(const Expr &body, const std::string &index, const std::string &array) {
  struct Rebase : Mutator {
    const std::string *index, *array;
    bool named(const Expr &a) const {
      auto v = a->as<Var>();
      return v && v->name == *array;
    }
    Expr inBlock(const Expr &at) {
      auto form = blockForm(at, *index);
      return form ? form->second : mutate(at);
    }
    Expr visit(const Index *n, const Expr &self) override {
      if (!named(n->array)) return mutateChildren(self);
      return Index::make(n->array, inBlock(n->index));
    }
    Expr visit(const Store *n, const Expr &self) override {
      if (!named(n->array)) return mutateChildren(self);
      return Store::make(n->array, inBlock(n->index), mutate(n->value), n->mode, n->path);
    }
  } rebase;
  rebase.index = &index;
  rebase.array = &array;
  return rebase.mutate(body);
}

} // namespace unfad::opt
