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
// whose bodies are straight-line code (no calls, branches or deeper loops),
// whose bounds do not change with the outer iteration (the tapes are sized
// before it), and whose state is a float or nothing: the shapes of a
// stepper over arrays. Anything else keeps the recomputing J^T.
#include "reverser.h"
#include "unfad/ad/reverse.h"

namespace unfad::ad::rev {

using namespace unfad::ir;
using unf::Instr;
using unf::Term;

namespace {

// Straight-line instructions whose forward values come from the slots, the
// memory read by Index, or nowhere.
bool plainStraightLine(const Instr &in) {
  switch (in.kind) {
  case Instr::Kind::Const: case Instr::Kind::Var: case Instr::Kind::Op: case Instr::Kind::Elem:
  case Instr::Kind::Tuple: case Instr::Kind::Drop: case Instr::Kind::Size: case Instr::Kind::Store:
  case Instr::Kind::Opaque:
    return true;
  case Instr::Kind::Index: return in.type->isScalar(); // (not a row of an array of arrays)
  default: return false;
  }
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

// `e`, computed in the enclosing loop's body (`lets`), as the same value
// computed before the loop: its variables bound in the body replaced by
// their definitions. Null when it depends on the iteration (the loop's
// index or state, memory).
Expr hoisted(const Expr &e, const Lets &lets, const std::set<std::string> &local) {
  if (!pureScalar(e)) return nullptr;
  Expr out = e;
  for (auto &name : freeVars(e)) {
    if (local.count(name)) return nullptr;
    for (auto let = lets.rbegin(); let != lets.rend(); ++let)
      if (let->first == name) {
        Expr value = hoisted(let->second, lets, local);
        if (!value) return nullptr;
        out = substitute(out, name, value);
        break;
      }
  }
  return out;
}

} // namespace

bool Reverser::tapeableNested(const Instr &in) {
  if (in.kind != Instr::Kind::Fold || !(in.type->isUnit() || in.type->isFloat())) return false;
  for (auto &b : in.branches[0].instrs)
    if (!plainStraightLine(b)) return false;
  return true;
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
    } else if (!plainStraightLine(in)) {
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

// The forward run of nested loop `in` at the top level of the enclosing
// loop's body (nested_), taping its state and its reads at (outer
// iteration, inner iteration). False (and nested_->failed) when it cannot.
bool Reverser::nestedLoopForward(const Instr &in, Stack &stack, Lets &lets) {
  NestedTaping &nt = *nested_;
  const size_t n = stack.size();
  const Expr lo = stack[n - 3].value, hi = stack[n - 2].value;
  // The bounds are known before the enclosing loop (the tapes are sized
  // there): computed from values bound outside its body.
  const Expr loBefore = hoisted(lo, lets, nt.local), hiBefore = hoisted(hi, lets, nt.local);
  if (!tapeableNested(in) || !loBefore || !hiBefore) {
    nt.failed = true;
    return false;
  }
  LoopRecord record;
  record.lo = lo;
  record.hi = hi;
  record.n = bind(*nt.before, "n", tripCount(loBefore, hiBefore));
  const Expr size = Prim::make(Op::Mul, {nt.outerN, record.n});
  const std::string i = fresh(in.indexName), s = fresh(in.state);
  const Expr index = Var::make(i, Type::i64()), state = Var::make(s, in.type);
  const Expr at = Prim::make(Op::Add, {Prim::make(Op::Mul, {nt.outerAt, record.n}), Prim::make(Op::Sub, {index, lo})});
  Lets iterationStart;
  if (in.type->isFloat()) {
    record.stateTapes.push_back(bind(*nt.before, "tape_" + in.state, NewArray::make(size, in.type, true)));
    bind(iterationStart, "_", Store::make(record.stateTapes.back(), at, state, Store::Mode::Set));
  }
  Stack bodyStack = stack;
  bodyStack.push_back({index, i});
  bodyStack.push_back({state, in.state});
  InstrValues captured;
  for (auto &b : in.branches[0].instrs)
    if (worthTapingOrRead(b)) captured.push_back({&b, nullptr});
  InstrValues *outerCapture = capture_;
  capture_ = &captured;
  nested_ = nullptr;
  Lets bodyLets;
  build(in.branches[0], bodyStack, nullptr, bodyLets);
  nested_ = &nt;
  capture_ = outerCapture;
  record.valueTapes = tapeValues(captured, size, at, *nt.before, bodyLets);
  Expr body = unf::wrapLets(iterationStart, unf::wrapLets(bodyLets, bodyStack.back().value));
  Expr result = bind(lets, in.hint, Fold::make(lo, hi, stack.back().value, i, s, body, in.reversedLoop));
  stack.push_back({result, in.hint});
  captureValue(in, stack);
  pretaped_[&in] = record;
  nt.loops.push_back(&in);
  return true;
}

} // namespace unfad::ad::rev

void unfad::ad::setTapeNestedLoops(bool on) { rev::tapeNestedLoops = on; }
