// CSE of whole loops and of calls to helpers that write nothing: a later
// let computing what an earlier one in the same block computed (up to
// bound names, ir::alphaEqual), with nothing in between writing what it
// reads, reuses it. After fusion, this is what removes the sweep's
// recomputation of inner loops the forward half already ran.
#include "support.h"
#include "unfad/opt/passes.h"
#include "unfad/ir/equal.h"
#include "unfad/ir/mutator.h"

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
      if (!(v->is<Fold>() || v->is<While>() || v->is<Call>()) || !shareable(v)) continue;
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
  }

private:
  const std::unordered_set<std::string> &pure_;

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
