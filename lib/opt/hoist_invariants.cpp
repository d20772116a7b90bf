// Loop-invariant code motion, for what may run once before a loop even
// when the loop runs zero times: scratch buffers of an invariant size (a
// tape filled and read within one iteration is reused by the next, one
// allocation instead of one per iteration) and trap-free scalar arithmetic
// on invariant values (such as that size):
//   let r = fold i .. -> (let x = e in body)  ~>  let x = e in let r = fold i .. -> body
#include "support.h"
#include "unfad/opt/passes.h"
#include "unfad/ir/mutator.h"

#include <algorithm>

namespace unfad::opt {

using namespace unfad::ir;

namespace {

class HoistInvariants : public BlockRewriter {
protected:
  void chain(Lets &lets, Expr &) override {
    for (size_t k = 0; k < lets.size(); ++k) {
      auto f = lets[k].second->as<Fold>();
      if (!f) continue;
      std::unordered_set<std::string> inner{f->index, f->state};
      Lets hoisted, kept;
      Expr tail = f->body;
      while (auto l = tail->as<Let>()) {
        bool invariant = movable(l->value);
        for (auto &v : freeVars(l->value)) invariant &= !inner.count(v);
        if (invariant) {
          hoisted.push_back({l->name, l->value});
        } else {
          kept.push_back({l->name, l->value});
          inner.insert(l->name);
        }
        tail = l->body;
      }
      if (hoisted.empty()) continue;
      lets[k].second = Fold::make(f->lo, f->hi, f->init, f->index, f->state, zipLets(kept, tail), f->reversed);
      lets.insert(lets.begin() + long(k), hoisted.begin(), hoisted.end());
      k += hoisted.size();
      changed = true;
    }
  }

private:
  static bool movable(const Expr &v) {
    if (auto a = v->as<NewArray>()) return a->scratch;
    return v->type->isScalar() && trapFree(v);
  }
  // Arithmetic on variables and constants, without integer division (x / 0).
  static bool trapFree(const Expr &e) {
    if (e->is<Const>() || e->is<Var>()) return true;
    if (auto p = e->as<Prim>()) {
      if ((p->op == Op::Div || p->op == Op::Mod) && !p->type->isFloat()) return false;
      return std::all_of(p->args.begin(), p->args.end(), trapFree);
    }
    if (auto i = e->as<If>()) return trapFree(i->cond) && trapFree(i->thenE) && trapFree(i->elseE);
    return false;
  }
};

} // namespace

Expr hoistInvariants(const Expr &e, const PassContext &, bool *changed) {
  HoistInvariants hoist;
  Expr r = hoist.rewrite(e);
  if (changed) *changed = hoist.changed;
  return r;
}

} // namespace unfad::opt
