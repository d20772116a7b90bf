// Loops nested in a loop, taped by the enclosing loop's forward pass, so
// that its J^T does not run them forward again.
//
// Without this, the J^T of an outer loop (a time step, a Runge-Kutta step)
// recomputes each iteration's body forward to get back the values the
// body's partials need, and so reruns every inner loop of the body: the
// forward sweep ran twice, O(work) per iteration to recover O(state).
// Instead the forward pass of the outer loop runs each inner loop the way
// its own J^T would (loopForward): it tapes the inner loop's state at every
// inner iteration, and the values its body's partials may read (its reads
// of arrays the loop can overwrite, its transcendental results), into
// tapes of outer x inner trip-count entries allocated once before the
// outer loop. The outer J^T then replays the inner loops' J^Ts from those
// tapes (block `at` of iteration `at`) and skips their forward runs; since
// the inner loops no longer write memory in the J^T, the outer body's own
// reads of such memory are taped too. Reads whose values no partial uses
// (a read feeding a sum) leave tapes nothing reads: dead code removes them.
//
// Applies when the outer loop's body is straight-line code and inner loops
// (or sums) whose bodies are straight-line code (no calls), deeper loops
// without state (maps, see tapeableDeepLoop), and an `if` ending the body
// over such code (a recurrent network's layer chosen by its index, each
// branch a cell loop); whose bounds do not
// change with the enclosing iterations (the tapes are sized before the
// outermost loop), and whose state is a float or nothing: the shapes of a
// stepper over arrays. A loop at depth d tapes at (its enclosing loop's
// position, its iteration), so a time x layer x element nest tapes per
// (t, layer, i), and the J^T of each level sets its nested loops' blocks
// from its own position. Anything else keeps the recomputing J^T.
#include "reverser.h"
#include "unfad/ad/reverse.h"

#include <algorithm>
#include <functional>

namespace unfad::ad::rev {

using namespace unfad::ir;
using unf::Instr;
using unf::Term;

namespace {

bool passiveChoice(const Instr &in);

// Straight-line instructions whose forward values come from the slots, the
// memory read by Index, or nowhere.
bool plainStraightLine(const Instr &in) {
  switch (in.kind) {
  case Instr::Kind::Const: case Instr::Kind::Var: case Instr::Kind::Op: case Instr::Kind::Elem:
  case Instr::Kind::Tuple: case Instr::Kind::Drop: case Instr::Kind::Size: case Instr::Kind::Store:
  case Instr::Kind::Opaque:
    return true;
  case Instr::Kind::Index: return in.type->isScalar(); // (not a row of an array of arrays)
  case Instr::Kind::If: return passiveChoice(in);
  default: return false;
  }
}

// An `if` choosing values without cotangents (integers) by straight-line
// code that stores nothing: a re-seated pointer's offset and array at the
// loop's first iteration or from the previous one (parallel/index_state.cpp).
// Its J^T transposes nothing; where the J^T needs its value, it is
// recomputed like straight-line code.
bool passiveChoice(const Instr &in) {
  std::function<bool(const TypeP &)> passive = [&](const TypeP &t) {
    if (t->isTuple()) return std::all_of(t->elems.begin(), t->elems.end(), passive);
    return t->isScalar() && !t->isFloat();
  };
  if (in.kind != Instr::Kind::If || !passive(in.type)) return false;
  for (auto &b : in.branches)
    for (auto &x : b.instrs)
      if (x.kind == Instr::Kind::Store || !plainStraightLine(x)) return false;
  return true;
}

const Expr &viewedArray(const Expr &a) {
  if (auto v = a->as<View>()) return viewedArray(v->array);
  return a;
}

// Only constants, variables, arithmetic and array sizes: no memory read.
bool pureScalar(const Expr &e) {
  if (e->is<Const>() || e->is<Var>()) return true;
  if (auto p = e->as<Prim>()) {
    for (auto &a : p->args)
      if (!pureScalar(a)) return false;
    return true;
  }
  if (auto z = e->as<ir::Size>()) return z->array->is<Var>();
  return false;
}

bool tapeableBody(const Term &body);

// A sum of straight-line elements at the top level of the taped loop's
// body (a log-sum-exp's): taped per element like a loop (nestedSumForward).
bool tapeableSum(const Instr &in) {
  if (in.kind != Instr::Kind::Sum || !in.type->isFloat()) return false;
  for (auto &b : in.branches[0].instrs)
    if (!plainStraightLine(b)) return false;
  return true;
}

// An `if` in a taped nest: one that ends its body (whose local gradient
// does not run it forward, see endingBranch), of no value, over code of
// the same kind. The layer chosen by its index in a recurrent network's
// step.
bool tapeableBranch(const Instr &in, const Term &around) {
  if (in.kind != Instr::Kind::If || !in.type->isUnit() || endingBranch(around) != &in) return false;
  for (auto &b : in.branches)
    if (!tapeableBody(b)) return false;
  return true;
}

// A loop nested two deep or more: taped per element only when it has no
// state (a map over elements, each iteration its own values: a cell
// updating its state elements). A reduction there (a dot product, a row
// of a matrix-vector product) reads values shared by the enclosing
// iterations: taping them per element would multiply the memory by the
// enclosing trip count (a recurrent step's h[k] once per row j), where
// the recomputing J^T restores them once per step.
bool tapeableDeepLoop(const Instr &in) {
  return in.kind == Instr::Kind::Fold && in.type->isUnit() && tapeableBody(in.branches[0]);
}

// Code nested in a taped loop's body: straight-line code, deeper loops
// without state, and branches that end it.
bool tapeableBody(const Term &body) {
  for (auto &b : body.instrs)
    if (!plainStraightLine(b) && !tapeableDeepLoop(b) && !tapeableBranch(b, body)) return false;
  return true;
}

} // namespace

// The definition of `name` in the innermost of `scopes` binding it, or null.
static const Expr *definition(const std::string &name, const std::vector<const Lets *> &scopes) {
  for (auto scope = scopes.rbegin(); scope != scopes.rend(); ++scope)
    for (auto let = (*scope)->rbegin(); let != (*scope)->rend(); ++let)
      if (let->first == name) return &let->second;
  return nullptr;
}

// `e`, computed in the enclosing loops' bodies (`scopes`), as the same value
// computed before the outermost loop: its variables bound in the bodies
// replaced by their definitions. Null when it depends on an iteration (a
// loop's index or state, memory).
Expr hoisted(const Expr &e, const std::vector<const Lets *> &scopes, const std::set<std::string> &local) {
  if (!pureScalar(e)) return nullptr;
  Expr out = e;
  for (auto &name : freeVars(e)) {
    if (local.count(name)) return nullptr;
    if (const Expr *def = definition(name, scopes)) {
      Expr value = hoisted(*def, scopes, local);
      if (!value) return nullptr;
      out = substitute(out, name, value);
    }
  }
  return out;
}


// A fold of a float or no state whose body is straight-line code, loops
// without state over such code, and an `if` over such code ending it.
bool Reverser::tapeableNested(const Instr &in) {
  return in.kind == Instr::Kind::Fold && (in.type->isUnit() || in.type->isFloat()) && tapeableBody(in.branches[0]);
}

// On by default (--tape-nested-loops=false turns it off: setTapeNestedLoops).
// Store or recompute: a step's inner loops are taped whenever they can be.
// Recomputing a step in the backward loop runs every inner loop forward
// again and copies out and back the arrays a later stage overwrites (ode's
// RK4 step: 23 passes over the state per step against the primal's 8); the
// tapes cost one store and one load per value a partial reads, and with no
// J^T reading the in/out state any more, its per-step undo and the final
// rerun of f go too (inout_state.cpp). Measured on GradBench's ode (n =
// 1,000, 10 steps, tape memory reused across calls by unfad::tape_buffer):
// gradient/primal 5.2-5.6 recomputing, 2.5-3.1 taped. (Before the pool, the
// fresh tape pages of every call made taping 20x slower at n = 10,000.)
static bool tapeNestedLoops = true;

bool Reverser::tapesNestedLoops(const Instr &loop) const {
  if (!tapeNestedLoops || loop.kind != Instr::Kind::Fold || replaying()) return false;
  bool nests = false;
  for (auto &in : loop.branches[0].instrs) {
    if (in.kind == Instr::Kind::Fold) {
      if (!tapeableNested(in)) return false;
      nests = true;
    } else if (!plainStraightLine(in) && !tapeableSum(in)) {
      return false;
    }
  }
  return nests;
}

// At the enclosing loop's top level: its taped values, and every scalar
// read (the nested loops that wrote that memory do not run in its J^T).
bool Reverser::worthTapingOrRead(const Instr &in) {
  return worthTaping(in) || (in.kind == Instr::Kind::Index && in.type->isScalar());
}

// Whether the read `in` just made (its result on top of `stack`) is of a
// parameter array nothing writes: its J^T reads it again for free.
bool Reverser::readsConstantParam(const Instr &in, const Stack &stack) const {
  if (in.kind != Instr::Kind::Index || stack.size() < 3) return false;
  auto v = viewedArray(stack[stack.size() - 3].value)->as<Var>();
  return v && params_.count(v->name) && !sizes_.count(v->name);
}

Expr Reverser::tapePosition(const LoopRecord &record, const Expr &at) {
  return record.base ? Prim::make(Op::Add, {record.base, at}) : at;
}

// The record of a loop [lo, hi) nested in the taped loop (`lets` the
// enclosing body's, `scopes` all enclosing ones with it): its trip count,
// bound before the outermost loop, which sizes the tapes there. False (and
// nested_->failed) when the loop is not `tapeable` or its bounds are not
// computed from values bound outside the outermost loop's body.
bool Reverser::nestedRecord(const Expr &lo, const Expr &hi, bool tapeable, Lets &lets,
                            std::vector<const Lets *> &scopes, LoopRecord &record) {
  NestedTaping &nt = *nested_;
  scopes = nt.scopes;
  scopes.push_back(&lets);
  const Expr loBefore = hoisted(lo, scopes, nt.local), hiBefore = hoisted(hi, scopes, nt.local);
  if (!tapeable || !loBefore || !hiBefore) {
    *nt.failed = true;
    return false;
  }
  record.lo = lo;
  record.hi = hi;
  record.n = bind(*nt.before, "n", tripCount(loBefore, hiBefore));
  return true;
}

// Iteration `index` of a nested loop taped at (the enclosing position,
// its iteration): outerAt * n + (index - lo).
Expr Reverser::nestedPosition(const LoopRecord &record, const Expr &index) {
  return Prim::make(Op::Add, {Prim::make(Op::Mul, {nested_->outerAt, record.n}), Prim::make(Op::Sub, {index, record.lo})});
}

// The forward run of nested loop `in` at the top level of the enclosing
// loop's body (nested_), taping its state and its reads at (outer
// iteration, inner iteration). False (and nested_->failed) when it cannot.
bool Reverser::nestedLoopForward(const Instr &in, Stack &stack, Lets &lets) {
  NestedTaping &nt = *nested_;
  const size_t n = stack.size();
  const Expr lo = stack[n - 3].value, hi = stack[n - 2].value;
  std::vector<const Lets *> scopes;
  LoopRecord record;
  if (!nestedRecord(lo, hi, tapeableNested(in), lets, scopes, record)) return false;
  const Expr size = Prim::make(Op::Mul, {nt.outerN, record.n});
  const std::string i = fresh(in.indexName), s = fresh(in.state);
  const Expr index = Var::make(i, Type::i64()), state = Var::make(s, in.type);
  const Expr at = nestedPosition(record, index);
  Stack bodyStack = stack;
  bodyStack.push_back({index, i});
  bodyStack.push_back({state, in.state});
  InstrValues captured;
  for (auto &b : in.branches[0].instrs)
    if (worthTapingOrRead(b)) captured.push_back({&b, nullptr});
  InstrValues *outerCapture = capture_;
  capture_ = &captured;
  // Loops nested in this one tape at (this loop's position, their iteration).
  Lets bodyLets;
  InstrValues branchTapes;
  NestedTaping inner{nt.before, size, at, nt.local, scopes, {}, nt.failed, &branchTapes, nt.invariant};
  inner.local.insert(i);
  inner.local.insert(s);
  inner.scopes.push_back(&bodyLets);
  nested_ = &inner;
  build(in.branches[0], bodyStack, nullptr, bodyLets);
  nested_ = &nt;
  capture_ = outerCapture;
  if (*nt.failed) return false;
  // The state at every iteration's start: one sequence for all enclosing
  // iterations when none of them changes it, else per (enclosing, inner).
  Lets iterationStart;
  if (in.type->isFloat()) {
    if (Expr tape = invariantStateTape(in, stack.back().value, record, index, state, bodyLets,
                                       bodyStack.back().value, scopes)) {
      record.stateTapes.push_back(tape);
      record.invariantState = true;
    } else {
      record.stateTapes.push_back(bind(*nt.before, "tape_" + in.state, NewArray::make(size, in.type, true)));
      bind(iterationStart, "_", Store::make(record.stateTapes.back(), at, state, Store::Mode::Set));
    }
  }
  record.nested = inner.loops;
  record.valueTapes = tapeValues(captured, size, at, *nt.before, bodyLets);
  record.valueTapes.insert(record.valueTapes.end(), branchTapes.begin(), branchTapes.end());
  Expr body = unf::wrapLets(iterationStart, unf::wrapLets(bodyLets, bodyStack.back().value));
  std::string carried = s;
  if (record.invariantState) {
    // The forward run reads the state from the shared tape too: the loop
    // still carries it (its final value), but no iteration waits for the
    // previous one's (a running sum's chain of dependent adds is gone).
    carried = fresh(in.state);
    Lets fromTape;
    fromTape.push_back({s, Index::make(record.stateTapes.back(), Prim::make(Op::Sub, {index, lo}))});
    body = unf::wrapLets(fromTape, body);
  }
  Expr result = bind(lets, in.hint, Fold::make(lo, hi, stack.back().value, i, carried, body, in.reversedLoop));
  stack.push_back({result, in.hint});
  captureValue(in, stack);
  pretaped_[&in] = record;
  nt.loops.push_back(&in);
  return true;
}

// The forward run of an `if` ending a taped loop's body (tapeableBranch):
// its branches built here, so that the loops in them tape at this
// iteration's position like the body's own, and so do the branch's own
// reads and costly values (their tapes go with the enclosing loop's, in
// nt.branchTapes: its J^T recomputes the branch taken from memory the
// replayed loops did not write back). The enclosing J^T sets up the loops
// of both branches for replay.
bool Reverser::nestedBranchForward(const Instr &in, Stack &stack, Lets &lets) {
  NestedTaping &nt = *nested_;
  InstrValues *outerCapture = capture_;
  Expr values[2];
  for (int k = 0; k < 2; ++k) {
    const unf::Term &branch = in.branches[size_t(k)];
    InstrValues captured;
    for (auto &b : branch.instrs)
      if (worthTapingOrRead(b)) captured.push_back({&b, nullptr});
    capture_ = &captured;
    Lets branchLets;
    NestedTaping inBranch = nt;
    inBranch.scopes.push_back(&lets);
    inBranch.scopes.push_back(&branchLets);
    inBranch.loops.clear();
    nested_ = &inBranch;
    Stack branchStack = stack;
    build(branch, branchStack, nullptr, branchLets);
    nested_ = &nt;
    nt.loops.insert(nt.loops.end(), inBranch.loops.begin(), inBranch.loops.end());
    for (auto &tape : tapeValues(captured, nt.outerN, nt.outerAt, *nt.before, branchLets))
      nt.branchTapes->push_back(tape);
    values[k] = unf::wrapLets(branchLets, branchStack.back().value);
  }
  capture_ = outerCapture;
  Expr result = bind(lets, in.hint, If::make(stack.back().value, values[0], values[1]));
  stack.push_back({result, in.hint});
  return true;
}

} // namespace unfad::ad::rev

void unfad::ad::setTapeNestedLoops(bool on) { rev::tapeNestedLoops = on; }

namespace unfad::ad::rev {

// The forward run of a sum in a taped loop's body (tapeableSum): the fold
// s + e(i), taping each element's reads and costly values at (the
// enclosing position, i), so that the enclosing J^T replays its J^T from
// them (parallel.cpp) without reading memory the replayed loops did not
// write back.
bool Reverser::nestedSumForward(const Instr &in, Stack &stack, Lets &lets) {
  NestedTaping &nt = *nested_;
  const size_t n = stack.size();
  const Expr lo = stack[n - 2].value, hi = stack[n - 1].value;
  std::vector<const Lets *> scopes;
  LoopRecord record;
  if (!nestedRecord(lo, hi, tapeableSum(in), lets, scopes, record)) return false;
  const Expr size = Prim::make(Op::Mul, {nt.outerN, record.n});
  const std::string i = fresh(in.indexName), acc = fresh(in.hint.empty() ? "sum" : in.hint);
  const Expr index = Var::make(i, Type::i64()), accVar = Var::make(acc, in.type);
  const Expr at = nestedPosition(record, index);
  Stack elemStack = stack;
  elemStack.push_back({index, i});
  InstrValues captured;
  for (auto &b : in.branches[0].instrs)
    if (worthTapingOrRead(b)) captured.push_back({&b, nullptr});
  InstrValues *outerCapture = capture_;
  capture_ = &captured;
  nested_ = nullptr;
  Lets elemLets;
  build(in.branches[0], elemStack, nullptr, elemLets);
  nested_ = &nt;
  capture_ = outerCapture;
  record.valueTapes = tapeValues(captured, size, at, *nt.before, elemLets);
  Expr next = bind(elemLets, acc, Prim::make(Op::Add, {accVar, elemStack.back().value}));
  Expr result = bind(lets, in.hint, Fold::make(lo, hi, Const::zero(in.type), i, acc, unf::wrapLets(elemLets, next)));
  stack.push_back({result, in.hint});
  captureValue(in, stack);
  pretaped_[&in] = record;
  nt.loops.push_back(&in);
  return true;
}

} // namespace unfad::ad::rev
