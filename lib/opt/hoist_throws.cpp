// A branch that ends in a `throw` only checks: the `if` becomes the check,
// and the other branch runs after it, unconditionally:
//   if c then A else (let xs = .. in let _ = throw E in Z)
//     ~>  let _ = (if c then () else (let xs = .. in let _ = throw E in ())) in A
// (and the mirror image). Both run the same effects in the same order: when
// c holds, A; otherwise the else branch's lets up to the throw, which ends
// the run. What follows the throw (Z) is dead. The join the `if` built for
// its value (a flag saying which branch ran, the values each assigns) then
// has one source, and partial evaluation folds it: the checks of argument
// validation cost a test and a jump, and reverse mode sees no branch to
// record or differentiate. Runs before reverse mode (lib/driver) and first
// in the optimiser (for forward mode and `unfad-opt`).
#include "unfad/ir/mutator.h"
#include "unfad/opt/passes.h"

namespace unfad::opt {

using namespace unfad::ir;

namespace {

// `e`'s let chain cut right after its first top-level throw, ending in ();
// null when the chain has no throw.
Expr upToThrow(const Expr &e) {
  auto l = e->as<Let>();
  if (!l) return nullptr;
  if (l->value->is<Throw>()) return Let::make(l->name, l->value, Tuple::make({}));
  Expr rest = upToThrow(l->body);
  return rest ? Let::make(l->name, l->value, rest) : nullptr;
}

struct HoistThrows : Mutator {
  bool changed = false;
  NameSupply names;
  Expr visit(const If *, const Expr &self) override {
    Expr e = mutateChildren(self);
    auto i = e->as<If>();
    if (!i) return e;
    Expr thenCheck = upToThrow(i->thenE), elseCheck = upToThrow(i->elseE);
    if (!thenCheck == !elseCheck) return e; // neither throws, or both do
    const Expr &other = thenCheck ? i->elseE : i->thenE;
    if (other->type->isUnit() && other->is<Tuple>()) return e; // already a check
    changed = true;
    Expr none = Tuple::make({});
    Expr check = thenCheck ? If::make(i->cond, thenCheck, none) : If::make(i->cond, none, elseCheck);
    return Let::make(names.fresh("_"), check, thenCheck ? i->elseE : i->thenE);
  }
};

} // namespace

bool letChainThrows(const Expr &e) {
  for (auto l = e->as<Let>(); l; l = l->body->as<Let>())
    if (l->value->is<Throw>()) return true;
  return false;
}

Expr hoistThrows(const Expr &e, const PassContext &, bool *changed) {
  HoistThrows h;
  h.names.reserveAll(e);
  Expr r = h.mutate(e);
  if (changed) *changed = h.changed;
  return r;
}

} // namespace unfad::opt
