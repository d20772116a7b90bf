// Values a loop's forward pass tapes besides its state: the results of the
// body's helper calls, inner loops and costly primitives (scalar floats),
// which its local gradient would otherwise recompute (a call's value for
// the partials around it, an inner loop's for the ones after it). While
// the body is recomputed, such an instruction reads its tape instead; the
// recomputation it no longer feeds is dead code. One value per iteration:
// memory stays linear in the run time.
#include "reverser.h"
#include "unfad/ad/derivatives.h"

namespace unfad::ad::rev {

using namespace unfad::ir;
using unf::Instr;
using unf::Term;

// (A read of passive data, an Opaque `read`, is read again: a load, where
// a tape costs a store and a load and, in a backward sweep's own
// recomputation, a buffer per iteration.)
bool Reverser::worthTaping(const Instr &in) {
  bool expensive = in.kind == Instr::Kind::Call || (in.kind == Instr::Kind::Opaque && !in.read) ||
                   in.kind == Instr::Kind::Fold || in.kind == Instr::Kind::While ||
                   in.kind == Instr::Kind::Sum || (in.kind == Instr::Kind::Op && partialsReadResult(in.op));
  return expensive && in.type && in.type->isFloat();
}

// In a sum, the same as anywhere: a transcendental's result is taped once
// rather than computed again by the J^T (lse's exp: gradient/primal 2.0 ->
// 1.2). (It was calls and loops only while every call allocated fresh tape
// memory, whose page faults at large n cost more than the exp;
// unfad::tape_buffer's memory is now kept between calls.)
bool Reverser::worthTapingInSum(const Instr &in) { return worthTaping(in); }

// The forward code of a loop body run on `stack`, capturing the values of
// its top-level instructions worth taping: its lets, and its result.
Expr Reverser::forwardCapturing(const Term &t, const Stack &stack, Lets &out, InstrValues &captured,
                                bool (*worth)(const Instr &)) {
  for (auto &in : t.instrs)
    if (worth(in)) captured.push_back({&in, nullptr});
  for (const Instr *in : intReadsAfterUpdates(t, worth)) captured.push_back({in, nullptr});
  InstrValues *outer = capture_;
  capture_ = &captured;
  Stack s = stack;
  build(t, s, nullptr, out);
  capture_ = outer;
  return s.back().value;
}

// The integer reads of t's top level that follow a taped call updating
// integer arrays in place. Recomputing the body reads that call's value
// from its tape without running it, so the arrays hold what they held
// before the call, not what the call left there (the same when the call
// puts back what it changed, as det's recursion does); the values read
// after it come from their tapes too, one integer each per iteration.
// (Reads nested in later branches, loops or calls make the call run again:
// Reverser::readsIntMemoryAfter.)
std::vector<const Instr *> Reverser::intReadsAfterUpdates(const Term &t, bool (*worth)(const Instr &)) const {
  std::vector<const Instr *> reads;
  bool after = false;
  for (auto &in : t.instrs) {
    if (after && in.kind == Instr::Kind::Index && in.type->isInt()) reads.push_back(&in);
    if (in.kind == Instr::Kind::Call && worth(in))
      if (const Function *g = prog_.find(in.callee); g && updatesIntArrays(*g)) after = true;
  }
  return reads;
}

// While capturing, records the value `in` just pushed.
void Reverser::captureValue(const Instr &in, const Stack &stack) {
  if (!capture_) return;
  if (readsConstantParam(in, stack)) return; // (a scalar read taped by nested_tapes.cpp)
  for (auto &[captured, value] : *capture_)
    if (captured == &in) value = stack.back().value;
}

// Tapes (one entry per iteration, at `at`) for the captured values; the
// stores go after the body's lets. Returns instr -> tape.
InstrValues Reverser::tapeValues(const InstrValues &captured, const Expr &n, const Expr &at, Lets &lets, Lets &body) {
  InstrValues tapes;
  for (auto &[in, value] : captured) {
    if (!value || value->is<Const>()) continue;
    Expr tape = bind(lets, "tape_" + (in->hint.empty() ? std::string("t") : in->hint),
                     NewArray::make(n, value->type, true));
    bind(body, "_", Store::make(tape, at, value, Store::Mode::Set));
    tapes.push_back({in, tape});
  }
  return tapes;
}

// While a body is recomputed (in its J^T's iteration `at`), its taped
// instructions read their tapes.
void Reverser::readTapes(const InstrValues &valueTapes, const Expr &at) {
  for (auto &[in, tape] : valueTapes) taped_[in] = Index::make(tape, at);
}

void Reverser::forgetTapes(const InstrValues &valueTapes) {
  for (auto &[in, tape] : valueTapes) taped_.erase(in);
}

// The tape read standing for `in` in a recomputation (bound now), or null.
Expr Reverser::tapedValue(const Instr &in, Lets &lets) {
  auto it = taped_.find(&in);
  return it == taped_.end() ? nullptr : bind(lets, in.hint, it->second);
}

} // namespace unfad::ad::rev
