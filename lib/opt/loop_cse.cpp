// CSE of whole loops, of pure ifs and of calls to helpers that write
// nothing: a later let computing what an earlier one in the same block
// computed (up to bound names, ir::alphaEqual), with nothing in between
// writing what it reads, reuses it. After fusion, this is what removes the sweep's
// recomputation of inner loops the forward half already ran.
//
// A later loop that computes the same as an earlier pure one and also
// tapes (stores into arrays it never reads: the sweep's tape of an inner
// loop's state) replaces it: the earlier loop goes, the pure code that
// used its value moves after the later one. (A k-means point's distance
// loop ran twice: once for the value, once to fill the tape. Equal ifs are
// merged first so that loops starting from a selected value, llsq's
// `r = t > 0 ? 1 : -1`, are seen as twins.)
#include "support.h"
#include "unfad/opt/passes.h"
#include "unfad/ir/equal.h"
#include "unfad/ir/mutator.h"
#include "unfad/ir/traverse.h"

#include <algorithm>
#include <set>

namespace unfad::opt {

using namespace unfad::ir;

namespace {

class LoopCSE : public BlockRewriter {
public:
  explicit LoopCSE(const std::unordered_set<std::string> &pure) : pure_(pure) {}

protected:
  void chain(Lets &lets, Expr &body) override {
    for (size_t m = 0; m < lets.size(); ++m) {
      const Expr &v = lets[m].second;
      if (!(v->is<Fold>() || v->is<While>() || v->is<Call>() || v->is<If>()) || !shareable(v)) continue;
      const MemoryEffects reader = memoryEffects(v);
      for (size_t k = m; k-- > 0;) {
        const Expr &u = lets[k].second;
        if (alphaEqual(u, v)) {
          Expr same = Var::make(lets[k].first, u->type);
          for (size_t j = m + 1; j < lets.size(); ++j) lets[j].second = substitute(lets[j].second, lets[m].first, same);
          body = substitute(body, lets[m].first, same);
          lets[m].second = same;
          changed = true;
          break;
        }
        // Stop at a write to what v reads, or an unknown call.
        MemoryEffects between = memoryEffects(u);
        if (between.clobbers(reader) || (between.writesMemory && !shareable(u) && between.calls)) break;
      }
    }
    for (size_t m = 0; m < lets.size(); ++m)
      if (Expr twin = lets[m].second->is<Fold>() ? withoutTapeStores(lets[m].second) : nullptr)
        replaceEarlierTwin(lets, body, m, twin);
  }

private:
  const std::unordered_set<std::string> &pure_;

  // `v` without its stores into arrays it does not read (null if it has
  // none, or if what is left is not pure).
  Expr withoutTapeStores(const Expr &v) const {
    struct Stored : Visitor {
      std::set<std::string> arrays;
      void visit(const Store *n) override {
        if (auto a = rootArray(n->array)->as<Var>()) arrays.insert(a->name);
        else arrays.insert("?");
        Visitor::visit(n);
      }
    } stored;
    stored.visitExpr(v);
    MemoryEffects effects = memoryEffects(v);
    if (stored.arrays.empty() || stored.arrays.count("?")) return nullptr;
    for (auto &a : stored.arrays)
      if (effects.reads.count(a)) return nullptr;
    // A store, or an if whose branches only store (a selection loop's
    // winner: rev/selection.cpp).
    struct Strip : Mutator {
      Expr visit(const Let *n, const Expr &me) override {
        if (n->value->is<Store>()) return mutate(n->body);
        if (auto c = n->value->as<If>()) {
          if (isUnitTuple(mutate(c->thenE)) && isUnitTuple(mutate(c->elseE))) return mutate(n->body);
        }
        return Mutator::visit(n, me);
      }
      Expr visit(const Store *, const Expr &) override { return ir::Tuple::make({}); }
      static bool isUnitTuple(const Expr &e) {
        auto t = e->as<ir::Tuple>();
        return t && t->elems.empty();
      }
    } strip;
    Expr stripped = strip.mutate(v);
    return shareable(stripped) ? stripped : nullptr;
  }

  // lets[m] tapes what an earlier pure lets[k] computes: lets[m] takes its
  // place, the pure lets in between that use lets[k]'s value move after it.
  void replaceEarlierTwin(Lets &lets, Expr &body, size_t m, const Expr &twin) {
    const MemoryEffects writer = memoryEffects(lets[m].second);
    const MemoryEffects reader = memoryEffects(twin);
    for (size_t k = m; k-- > 0;) {
      MemoryEffects between = memoryEffects(lets[k].second);
      if (!alphaEqual(lets[k].second, twin)) {
        if (between.clobbers(reader) || writer.clobbers(between) || (between.calls && !shareable(lets[k].second))) return;
        continue;
      }
      // The uses of lets[k] up to m: pure, and not used by lets[m].
      std::set<std::string> moved{lets[k].first};
      std::vector<size_t> movedAt;
      for (size_t j = k + 1; j < m; ++j) {
        bool uses = false;
        for (auto &v : freeVars(lets[j].second)) uses |= moved.count(v) != 0;
        if (!uses) continue;
        if (memoryEffects(lets[j].second).writesMemory) return;
        moved.insert(lets[j].first);
        movedAt.push_back(j);
      }
      for (auto &v : freeVars(lets[m].second))
        if (moved.count(v)) return;
      Expr same = Var::make(lets[m].first, lets[m].second->type);
      Lets out(lets.begin(), lets.begin() + long(k));
      for (size_t j = k + 1; j < m; ++j)
        if (!std::count(movedAt.begin(), movedAt.end(), j)) out.push_back(lets[j]);
      out.push_back(lets[m]);
      for (size_t j : movedAt) out.push_back({lets[j].first, substitute(lets[j].second, lets[k].first, same)});
      for (size_t j = m + 1; j < lets.size(); ++j) out.push_back({lets[j].first, substitute(lets[j].second, lets[k].first, same)});
      body = substitute(body, lets[k].first, same);
      lets = std::move(out);
      changed = true;
      return;
    }
  }

  // Pure: no stores, and calls only to helpers that write nothing.
  bool shareable(const Expr &e) const {
    struct Pure : Visitor {
      const std::unordered_set<std::string> *pure;
      bool ok = true;
      void visit(const Store *) override { ok = false; }
      void visit(const Pullback *) override { ok = false; }
      void visit(const NewArray *) override { ok = false; }
      void visit(const Call *n) override {
        bool arrays = false;
        for (auto &a : n->args) arrays |= a->type->isArray();
        if (arrays && !pure->count(n->callee)) ok = false;
        Visitor::visit(n);
      }
    } check;
    check.pure = &pure_;
    check.visitExpr(e);
    return check.ok;
  }
};

} // namespace

Expr loopCSE(const Expr &e, const PassContext &context, bool *changed) {
  LoopCSE loops(context.pureCallees);
  Expr r = loops.rewrite(e);
  if (changed) *changed = loops.changed;
  return r;
}

} // namespace unfad::opt
