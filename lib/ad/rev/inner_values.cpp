// The loop values of an inner loop's body, taped by the enclosing loop's
// forward pass per (iteration, inner iteration).
//
// A loop whose J^T recomputes its body (loops.cpp) tapes the values of the
// body's top level that are costly to get back (tapes.cpp: calls, inner
// loops, transcendentals), but an inner loop of the body is recomputed
// whole: in every backward iteration it runs forward again, and so does
// every loop nested in it. When that inner loop's body computes its own
// values by loops (a mixture model's per-cluster quadratic form, a sum over
// the dimensions, feeding the per-point log-sum-exp's inputs), the backward
// sweep pays O(work) per value again: GradBench's gmm recomputed each
// point's k terms, O(k d^2), only for the log-sum-exp's pullback to read
// them. Instead, the enclosing loop's forward pass builds such an inner
// loop itself and tapes the values its body gets from loops and calls
// (floats), per (iteration, inner iteration), in tapes of outer x inner
// trip-count entries allocated once before the loop; when its J^T
// recomputes the inner loop forward, those instructions read the tapes,
// and what only fed them (the inner loops, the scratch arrays they fill) is
// dead code. Memory stays one value per inner iteration run, linear in the
// run time.
//
// Applies to the loops (folds) at the top level of the enclosing loop's
// body whose bounds do not change with its iterations (the tapes are sized
// before it) and whose bodies allocate nothing.
#include "reverser.h"

namespace unfad::ad::rev {

using namespace unfad::ir;
using unf::Instr;
using unf::Term;

namespace {

bool allocates(const Term &t) {
  for (auto &in : t.instrs) {
    if (in.kind == Instr::Kind::New || in.kind == Instr::Kind::Build) return true;
    for (auto &b : in.branches)
      if (allocates(b)) return true;
  }
  return false;
}

} // namespace

// What an inner loop's body recomputes at a loop's cost: a helper's result,
// an inner loop's value (a float: not a unit map, not an index).
bool Reverser::worthTapingTwoDeep(const Instr &in) {
  switch (in.kind) {
  case Instr::Kind::Call: case Instr::Kind::Fold: case Instr::Kind::While: case Instr::Kind::Sum:
    return in.type && in.type->isFloat();
  default: return false;
  }
}

// The forward run of the fold `in` at the top level of a loop's body
// (inner_): built here, so that its body's loop values are taped at
// (the enclosing position, its iteration). False when it has none, or
// cannot be taped (then it is built as usual).
bool Reverser::innerLoopForward(const Instr &in, Stack &stack, Lets &lets) {
  InnerTaping &it = *inner_;
  const Term &body = in.branches[0];
  InstrValues captured;
  for (auto &b : body.instrs)
    if (worthTapingTwoDeep(b)) captured.push_back({&b, nullptr});
  if (captured.empty() || allocates(body)) return false;
  const size_t n = stack.size();
  const Expr lo = stack[n - 3].value, hi = stack[n - 2].value;
  const std::vector<const Lets *> scopes{&lets};
  const Expr loBefore = hoisted(lo, scopes, it.local), hiBefore = hoisted(hi, scopes, it.local);
  if (!loBefore || !hiBefore) return false;
  InnerTapes tapes;
  tapes.n = bind(*it.before, "n", tripCount(loBefore, hiBefore));
  const std::string i = fresh(in.indexName), s = fresh(in.state);
  const Expr index = Var::make(i, Type::i64()), state = Var::make(s, in.type);
  const Expr at = Prim::make(Op::Add, {Prim::make(Op::Mul, {it.outerAt, tapes.n}), Prim::make(Op::Sub, {index, lo})});
  Stack bodyStack = stack;
  bodyStack.push_back({index, i});
  bodyStack.push_back({state, in.state});
  // (the values captured here are the inner body's; the enclosing loop's
  // capture resumes for the fold's own value)
  InstrValues *outerCapture = capture_;
  capture_ = &captured;
  inner_ = nullptr;
  Lets bodyLets;
  build(body, bodyStack, nullptr, bodyLets);
  inner_ = &it;
  capture_ = outerCapture;
  tapes.tapes = tapeValues(captured, Prim::make(Op::Mul, {it.outerN, tapes.n}), at, *it.before, bodyLets);
  Expr result = bind(lets, in.hint,
                     Fold::make(lo, hi, stack.back().value, i, s, unf::wrapLets(bodyLets, bodyStack.back().value),
                                in.reversedLoop));
  stack.push_back({result, in.hint});
  captureValue(in, stack);
  if (!tapes.tapes.empty()) {
    innerTaped_[&in] = std::move(tapes);
    it.loops.push_back(&in);
  }
  return true;
}

// In the recomputation of inner loop `loop` (its iteration at `at`), while
// its enclosing loop's J^T is built: its taped instructions read the tapes.
void Reverser::readInnerTapes(const Instr &loop, const Expr &at) {
  auto it = innerTaped_.find(&loop);
  if (it == innerTaped_.end() || !it->second.base) return;
  for (auto &[in, tape] : it->second.tapes) forwardTaped_[in] = Index::make(tape, Prim::make(Op::Add, {it->second.base, at}));
}

void Reverser::forgetInnerTapes(const Instr &loop) {
  auto it = innerTaped_.find(&loop);
  if (it == innerTaped_.end()) return;
  for (auto &[in, tape] : it->second.tapes) forwardTaped_.erase(in);
}

// Forward code of `in` whose value is a tape read (forwardTaped_): the tape
// stands for the value. The computation itself stays in the code built
// here, unused: what the enclosing loop saves for its J^T is decided from
// the memory this code reads (a helper reading an array the inner loop
// overwrites needs the overwritten elements back for its pullback), and the
// optimiser drops it when it writes nothing.
bool Reverser::forcedForward(const Instr &in, Stack &stack, Lets &lets) {
  auto it = forwardTaped_.find(&in);
  if (it == forwardTaped_.end()) return false;
  forwardStep(in, stack, lets);
  stack.back().value = bind(lets, in.hint, it->second);
  captureValue(in, stack);
  return true;
}

} // namespace unfad::ad::rev
