// A loop's integer state that every iteration advances by the same
// constant (an induction variable: the running position `li++` into a
// packed triangle) is not taped: the J^T computes it from the iteration,
// init + (iterations before it) * step.
//
// loops.cpp tapes a loop's state at the start of every iteration so that
// the J^T can restore it. For such a counter the tape costs a store per
// iteration in the forward run and a load in the backward one, and where
// the loop itself is recomputed (nested in a loop whose J^T recomputes its
// body: GradBench's gmm, a triangular row loop per column) the forward run
// exists only to fill that tape: a whole extra pass over the inner loop per
// backward iteration. With the closed form nothing reads the forward run's
// state and it is dead code. Integers only: the closed form is exact in
// two's complement; for floats repeated additions round differently.
#include "reverser.h"

#include "unfad/ir/equal.h"

#include <map>

namespace unfad::ad::rev {

using namespace unfad::ir;
using unf::Instr;

namespace {

// `e` with the variables bound in `defs` replaced by their definitions, as
// far as copies, projections and tuples go (the body's value is a variable
// bound to a tuple of variables bound to ...).
Expr resolve(Expr e, const std::map<std::string, Expr> &defs) {
  for (int hops = 0; hops < 64; ++hops) {
    if (auto v = e->as<Var>()) {
      auto def = defs.find(v->name);
      if (def == defs.end()) return e;
      e = def->second;
    } else if (auto p = e->as<Proj>()) {
      Expr t = resolve(p->tuple, defs);
      auto tuple = t->as<ir::Tuple>();
      if (!tuple) return Proj::make(t, p->index);
      e = tuple->elems.at(size_t(p->index));
    } else {
      return e;
    }
  }
  return e;
}

// The next value of leaf `leaf` (the state, or a projection of it) in
// `next`, or null when the body's value is not a tuple built of leaves.
Expr leafOf(const Expr &next, const Expr &leaf, const std::map<std::string, Expr> &defs) {
  std::vector<int> path;
  Expr l = leaf;
  while (auto p = l->as<Proj>()) {
    path.insert(path.begin(), p->index);
    l = p->tuple;
  }
  Expr e = resolve(next, defs);
  for (int k : path) {
    auto tuple = e->as<ir::Tuple>();
    if (!tuple) return nullptr;
    e = resolve(tuple->elems.at(size_t(k)), defs);
  }
  return e;
}

} // namespace

// For each scalar leaf of a loop's state (`leaves`: the state variable or
// its projections), the constant each iteration adds to it when it is an
// integer advanced by a constant (`next`: the body's value, over its lets),
// else null.
std::vector<Expr> Reverser::inductionSteps(const std::vector<Expr> &leaves, const Lets &bodyLets, const Expr &next) {
  std::map<std::string, Expr> defs(bodyLets.begin(), bodyLets.end());
  std::vector<Expr> steps;
  for (auto &leaf : leaves) {
    Expr step;
    Expr e = leaf->type->isInt() ? leafOf(next, leaf, defs) : nullptr;
    auto p = e ? e->as<Prim>() : nullptr;
    if (p && p->args.size() == 2) {
      auto isLeaf = [&](const Expr &a) { return alphaEqual(resolve(a, defs), leaf); };
      auto isConst = [](const Expr &a) { return a->is<Const>() && a->type->isInt(); };
      if (p->op == Op::Add && isLeaf(p->args[0]) && isConst(p->args[1])) step = p->args[1];
      else if (p->op == Op::Add && isConst(p->args[0]) && isLeaf(p->args[1])) step = p->args[0];
      else if (p->op == Op::Sub && isLeaf(p->args[0]) && isConst(p->args[1]))
        step = Const::makeInt(-p->args[1]->as<Const>()->ivalue);
    }
    steps.push_back(step);
  }
  return steps;
}

// Leaf `init` + (the iterations before `index`) * `step`, in an induction
// loop's J^T.
Expr Reverser::inductionState(const Instr &in, const LoopRecord &record, const Expr &index, const Expr &init,
                              const Expr &step) {
  // iterations before `index`: index - lo upwards, hi - 1 - index downwards
  const Expr before = in.reversedLoop ? Prim::make(Op::Sub, {Prim::make(Op::Sub, {record.hi, Const::makeInt(1)}), index})
                                      : Prim::make(Op::Sub, {index, record.lo});
  return Prim::make(Op::Add, {init, Prim::make(Op::Mul, {before, step})});
}

} // namespace unfad::ad::rev
