// F(fold, J^T fold) and F(while, J^T while). Forward: the loop runs once,
// recording its state at the start of every iteration on a tape (one
// buffer per scalar of the state: memory linear in the run time). A while
// loop first counts its iterations, then replays them as a fold. J^T: a
// fold in the opposite direction restores each iteration's state,
// recomputes the body and applies the body's local reverse pass; the
// cotangents of the state and of the outer scalars the body reads are its
// state, array cotangents go to their buffers in place.
#include "cotangents.h"
#include "reverser.h"
#include "unfad/ir/equal.h"

#include <algorithm>

namespace unfad::ad::rev {

using namespace unfad::ir;
using unf::Instr;
using unf::Term;

namespace {

// The scalar leaves of a state value, and the state rebuilt from leaves.
void leaves(const Expr &v, std::vector<Expr> &out) {
  if (!v->type->isTuple()) return out.push_back(v);
  for (int k = 0; k < int(v->type->elems.size()); ++k) leaves(Proj::make(v, k), out);
}

Expr rebuild(const TypeP &t, const std::vector<Expr> &ls, size_t &pos) {
  if (!t->isTuple()) return ls.at(pos++);
  std::vector<Expr> elems;
  for (auto &e : t->elems) elems.push_back(rebuild(e, ls, pos));
  return makeTuple(t, std::move(elems));
}

const Term &bodyOf(const Instr &loop) { return loop.kind == Instr::Kind::While ? loop.branches[1] : loop.branches[0]; }

// Whether `t` stores into no array and calls nothing that does: then the
// only cotangent entering its loop's J^T is that of the loop's state (a
// store's cotangent would arrive in the array's buffer instead).
bool storesNothing(const Term &t, const Program &prog) {
  for (auto &in : t.instrs) {
    if (in.kind == Instr::Kind::Store || in.kind == Instr::Kind::Resize) return false;
    if (in.kind == Instr::Kind::Call)
      if (const Function *g = prog.find(in.callee); !g || std::any_of(g->params.begin(), g->params.end(),
                                                                      [](const Param &p) { return p.written; }))
        return false;
    for (auto &b : in.branches)
      if (!storesNothing(b, prog)) return false;
  }
  return true;
}

// `ct != 0` for some float leaf of the cotangent `ct`, or null when `ct`
// has a leaf that is neither a float nor () (an array's).
Expr anyNonzero(const Expr &ct) {
  std::vector<Expr> ls;
  leaves(ct, ls);
  Expr any;
  for (auto &l : ls) {
    if (l->type->isUnit()) continue;
    if (!l->type->isFloat()) return nullptr;
    Expr nonzero = Prim::make(Op::Ne, {l, Const::zero(l->type)});
    any = any ? Prim::make(Op::Or, {any, nonzero}) : nonzero;
  }
  return any;
}

} // namespace

Expr tripCount(const Expr &lo, const Expr &hi) {
  return If::make(Prim::make(Op::Lt, {lo, hi}), Prim::make(Op::Sub, {hi, lo}), Const::makeInt(0));
}

void Reverser::loop(const Instr &in, Stack &stack, Expr *Y, Lets &lets, const Expr &forced) {
  const int n = int(stack.size()); // includes the loop's arguments
  if (auto sel = selectionOf(in, n)) return selectionLoop(in, stack, Y, lets, forced, *sel);
  // A loop its enclosing loop's forward pass taped (nested_tapes.cpp): only
  // its J^T, from the tapes; its value is taped too, or is ().
  if (auto it = replayed_.find(&in); it != replayed_.end()) {
    LoopRecord record = it->second;
    record.lo = stack[size_t(n - 3)].value; // (as recomputed here)
    record.hi = stack[size_t(n - 2)].value;
    Expr result = forced ? forced : in.type->isUnit() ? ir::Tuple::make({}) : nullptr;
    if (!result) throw IRError("reverse: the value of a taped nested loop is not taped");
    stack.push_back({result, in.hint});
    return loopTranspose(in, stack, n, Y, lets, record);
  }
  LoopRecord record;
  if (in.kind == Instr::Kind::While) {
    record.lo = Const::makeInt(0);
    record.hi = countIterations(in, stack, lets, record.copies);
    record.n = record.hi;
  } else {
    record.lo = stack[size_t(n - 3)].value;
    record.hi = stack[size_t(n - 2)].value;
    record.n = bind(lets, "n", tripCount(record.lo, record.hi));
  }
  Expr result = loopForward(in, stack, lets, record);
  stack.push_back({forced ? forced : result, in.hint});
  loopTranspose(in, stack, n, Y, lets, record);
}

// Counts a while loop's iterations: while (cond) (s, k) := (body(s), k + 1).
// Counting runs the body, stores included; the replay must start from the
// same memory: local arrays it writes are copied first (into `beforeCount`)
// and put back after, and its writes to outputs wait for the replay.
Expr Reverser::countIterations(const Instr &in, const Stack &stack, Lets &lets, ArrayCopies &beforeCount) {
  const Slot init = stack.back();
  std::string counter = fresh(in.state + "_count");
  Expr counterVar = Var::make(counter, Type::tuple({in.type, Type::i64()}));
  Expr state = Proj::make(counterVar, 0), k = Proj::make(counterVar, 1);
  Stack countStack = stack;
  countStack.push_back({Const::makeInt(0), "iteration"});
  countStack.push_back({state, in.state});
  Expr cond = forwardOnly(in.branches[0], countStack);
  Expr next = forwardOnly(bodyOf(in), countStack);
  std::set<std::string> read, written;
  localArrays(cond, read, written);
  localArrays(next, read, written);
  beforeCount = snapshot(written, stack, lets);
  next = withoutOutputStores(next);
  Expr counted = bind(lets, in.state + "_count",
                      While::make(ir::Tuple::make({init.value, Const::makeInt(0)}), counter, cond,
                                  ir::Tuple::make({next, Prim::make(Op::Add, {k, Const::makeInt(1)})})));
  restore(beforeCount, lets);
  return bind(lets, "iterations", Proj::make(counted, 1));
}

// The forward loop: the body, storing the state and the values worth
// taping at iteration `at` = i - lo, and keeping what it overwrites in the
// local arrays it writes. Returns the loop's final state.
Expr Reverser::loopForward(const Instr &in, const Stack &stack, Lets &lets, LoopRecord &record) {
  std::string i = fresh(in.kind == Instr::Kind::While ? "iteration" : in.indexName), s = fresh(in.state);
  Expr index = Var::make(i, Type::i64()), state = Var::make(s, in.type);
  Expr at = Prim::make(Op::Sub, {index, record.lo});
  std::vector<Expr> stateLeaves;
  leaves(state, stateLeaves);
  for (auto &l : stateLeaves)
    record.stateTapes.push_back(bind(lets, "tape_" + in.state, NewArray::make(record.n, l->type, true)));
  Lets iterationStart; // runs before the body
  Stack bodyStack = stack;
  bodyStack.push_back({index, i});
  bodyStack.push_back({state, in.state});
  Lets bodyLets;
  InstrValues captured;
  Expr bodyResult;
  if (tapesNestedLoops(in)) {
    // (the tapes of the nested loops are allocated before this loop)
    Lets before;
    bool failed = false;
    InstrValues branchTapes; // (none: tapesNestedLoops admits no `if` at this level)
    std::vector<std::pair<Expr, Expr>> invariant;
    NestedTaping taping{&before, record.n, at, {i, s}, {}, {}, &failed, &branchTapes, &invariant};
    NestedTaping *outer = nested_;
    nested_ = &taping;
    bodyResult = forwardCapturing(bodyOf(in), bodyStack, bodyLets, captured, worthTapingOrRead);
    nested_ = outer;
    if (failed) {
      bodyLets.clear();
      captured.clear();
    } else {
      lets.insert(lets.end(), before.begin(), before.end());
      record.nested = taping.loops;
    }
  }
  if (!bodyResult || record.nested.empty()) {
    // (the loops of its body tape their bodies' loop values: inner_values.cpp)
    InnerTaping taping{&lets, record.n, at, {i, s}, {}};
    InnerTaping *outer = inner_;
    inner_ = &taping;
    readInnerTapes(in, at); // (this loop's own, when it is such an inner loop being recomputed)
    bodyResult = forwardCapturing(bodyOf(in), bodyStack, bodyLets, captured);
    forgetInnerTapes(in);
    inner_ = outer;
    record.inner = taping.loops;
  }
  // The state at each iteration's start is taped, unless it is an induction
  // variable: then the J^T computes it (induction.cpp), and the tape
  // allocated above is dead code.
  record.stateSteps = inductionSteps(stateLeaves, bodyLets, bodyResult);
  record.stateInit = stack.back().value;
  for (size_t k = 0; k < record.stateTapes.size(); ++k) {
    if (record.stateSteps[k]) record.stateTapes[k] = nullptr;
    else bind(iterationStart, "_", Store::make(record.stateTapes[k], at, stateLeaves[k], Store::Mode::Set));
  }
  record.valueTapes = tapeValues(captured, record.n, at, lets, bodyLets);
  Expr body = unf::wrapLets(bodyLets, bodyResult);
  saveWrittenArrays(in, stack, bodyStack, body, iterationStart, at, lets, record);
  Expr next = unf::wrapLets(iterationStart, body);
  return bind(lets, in.hint, Fold::make(record.lo, record.hi, stack.back().value, i, s, next, in.reversedLoop));
}

// Local arrays the loop writes are restored to their state before the loop
// when its J^T is done (so earlier recomputations read what the forward
// pass read); those it also reads are saved at the start of every
// iteration (`body` is instrumented, `iterationStart` extended) and
// restored before the iteration is recomputed.
void Reverser::saveWrittenArrays(const Instr &in, const Stack &stack, const Stack &bodyStack, Expr &body,
                                 Lets &iterationStart, const Expr &at, Lets &lets, LoopRecord &record) {
  std::set<std::string> written;
  localArrays(body, record.reads, written);
  if (in.kind == Instr::Kind::While) localArrays(forwardOnly(in.branches[0], bodyStack), record.reads, written);
  // (a while loop's copies from before its counting pass are some already)
  std::set<std::string> uncopied = written;
  for (auto &c : record.copies) uncopied.erase(c.first->as<Var>()->name);
  // Inside the recomputation of an enclosing loop that never reads an
  // array it did not allocate itself, nothing needs the array back before
  // the enclosing loop's own restore (without this, a fill loop nested in
  // another copied the whole array once per outer iteration). (One that
  // fills the array before reading it still needs it back: code of the
  // same iteration between the fills reads what the earlier fill left.)
  // Neither does one whose iterations fill the array whole before they read
  // it and only read it after their last write (record.scratch: the k1 of
  // a Runge-Kutta step).
  std::set<std::string> unrestored;
  if (!enclosingReads_.empty()) {
    const Enclosing &e = enclosingReads_.back();
    for (auto &a : uncopied)
      if (e.known.count(a) && (!e.reads->count(a) || e.scratch->count(a))) unrestored.insert(a);
    for (auto &a : unrestored) uncopied.erase(a);
  }
  for (auto &a : written)
    if (sizes_.at(a) && rewritesBeforeReading(body, a) && writesBeforeReads(body, a)) record.scratch.insert(a);
  std::vector<Expr> touched; // every array the loop writes: copied, or not
  for (auto &c : record.copies) touched.push_back(c.first);
  for (auto &a : uncopied)
    if (Expr v = arrayNamed(a, stack)) touched.push_back(v);
  for (auto &a : unrestored)
    if (Expr v = arrayNamed(a, stack)) touched.push_back(v);
  std::set<std::string> copyBefore;
  for (auto &array : touched) {
    const std::string &a = array->as<Var>()->name;
    SavedArray saved{array, sizes_.at(a), nullptr, {}, {}};
    // Written only by stores: tape what each overwrites (one entry per
    // iteration for stores in the body or its branches, an undo log for
    // stores in nested loops); otherwise save the whole array every
    // iteration. An array of unknown length (an in/out pointer) cannot be
    // copied from before the loop either: its stores are undone even where
    // the loop does not read it.
    // Inside the recomputation of an enclosing loop, a copy from before
    // this loop is made once per enclosing iteration: O(array) each time,
    // where what this loop overwrites is often a row (a fill loop over
    // `t[i][k]` in the body of a loop over i). The undo tapes cost what it
    // overwrites. (A loop over the array's whole length costs the copy
    // either way, and a copy nothing reads is dead code.)
    const bool sweeps = record.lo->is<Const>() && record.lo->as<Const>()->isZero() && sizes_.at(a) &&
                        alphaEqual(record.hi, sizes_.at(a));
    const bool copiedPerEnclosingIteration = uncopied.count(a) && !enclosingReads_.empty() && !sweeps;
    const bool readsFirst = record.reads.count(a) && !rewritesBeforeReading(body, a);
    if (readsFirst || !sizes_.at(a) || copiedPerEnclosingIteration) {
      if (Expr instrumented = tapeOverwrites(body, array, record.n, at, lets, iterationStart, saved.undo,
                                             bodyStack[bodyStack.size() - 2].value)) {
        body = instrumented;
      } else if (Expr logged = logOverwrites(body, array, record, bodyStack, at, lets, iterationStart, saved.log)) {
        body = logged;
      } else if (readsFirst || !sizes_.at(a)) {
        saved.len = lengthOf(a);
        saved.perIteration = bind(lets, "tape_" + a, NewArray::make(Prim::make(Op::Mul, {record.n, saved.len}),
                                                                    array->type->elem(), true));
        bind(iterationStart, "_", copyLoop(saved.perIteration, Prim::make(Op::Mul, {at, saved.len}), array,
                                           Const::makeInt(0), saved.len));
      }
    }
    // The J^T undoes every iteration's stores of an array with undo tapes,
    // which leaves it as the loop found it: no copy needed for after.
    if (uncopied.count(a) && !saved.undone()) copyBefore.insert(a);
    record.saved.push_back(saved);
  }
  for (auto &c : snapshot(copyBefore, stack, lets)) record.copies.push_back(c);
}

// In the J^T's iteration `index` (it runs over the forward loop's indices):
// the state and the local memory as the forward iteration found them.
// Returns the state.
Expr Reverser::restoreIteration(const Instr &in, const LoopRecord &record, const Expr &index, Lets &body) {
  const Expr at = Prim::make(Op::Sub, {index, record.lo});
  std::vector<Expr> restored;
  std::vector<Expr> inits;
  if (record.stateInit) leaves(record.stateInit, inits);
  for (size_t k = 0; k < record.stateTapes.size(); ++k) {
    const Expr &tape = record.stateTapes[k];
    restored.push_back(tape ? Index::make(tape, record.invariantState ? at : tapePosition(record, at))
                            : inductionState(in, record, index, inits.at(k), record.stateSteps.at(k)));
  }
  size_t pos = 0;
  Expr state = bind(body, in.state, rebuild(in.type, restored, pos));
  for (auto &saved : record.saved) {
    if (saved.perIteration)
      bind(body, "_", copyLoop(saved.array, Const::makeInt(0), saved.perIteration,
                               Prim::make(Op::Mul, {at, saved.len}), saved.len));
    undoStores(saved.array, saved.undo, at, body, index);
    if (saved.log.used()) undoLogged(saved.array, saved.log, at, body);
  }
  return state;
}

// J^T loop: a fold in the opposite direction whose state is the cotangent
// of the loop's state and those of the outer slots the body reads.
void Reverser::loopTranspose(const Instr &in, Stack &stack, int n, Expr *Y, Lets &lets, LoopRecord &record) {
  const bool isWhile = in.kind == Instr::Kind::While;
  Transpose t = openTranspose(stack);
  const std::vector<Expr> &ys = t.cotangents; // y_1..y_{n+1}: the cotangents of the slots and of the result
  std::vector<const Term *> terms{&bodyOf(in)};
  if (isWhile) terms.push_back(&in.branches[0]);
  std::vector<int> free = slotsWithCotangents(terms, stack, n);
  std::vector<Expr> init{ys[size_t(n)]};
  std::vector<TypeP> types{ys[size_t(n)]->type};
  for (int f : free) {
    init.push_back(Const::zero(ys[size_t(f)]->type));
    types.push_back(ys[size_t(f)]->type);
  }
  std::string j = fresh(isWhile ? "iteration" : in.indexName), acc = fresh("d_" + in.state + "_loop");
  Expr index = Var::make(j, Type::i64()), accVar = Var::make(acc, Type::tuple(types));
  Lets body;
  Expr state = restoreIteration(in, record, index, body);
  Stack ctx(stack.begin(), stack.begin() + n);
  std::vector<Expr> cts;
  for (int k = 0; k < n + 2; ++k) {
    TypeP ct = k < n ? ys[size_t(k)]->type : k == n ? Type::unit() : cotangentType(in.type);
    cts.push_back(Const::zero(ct));
  }
  cts.push_back(Proj::make(accVar, 0));
  readTapes(record.valueTapes, tapePosition(record, Prim::make(Op::Sub, {index, record.lo})));
  Enclosing enclosing{&record.reads, &record.scratch, {}};
  for (auto &[a, len] : sizes_) enclosing.known.insert(a);
  enclosingReads_.push_back(std::move(enclosing));
  // The nested loops taped by the forward pass replay their J^Ts from this
  // iteration's block of their tapes.
  for (const Instr *inner : record.nested) {
    LoopRecord nestedRecord = pretaped_.at(inner);
    nestedRecord.base =
        Prim::make(Op::Mul, {tapePosition(record, Prim::make(Op::Sub, {index, record.lo})), nestedRecord.n});
    replayed_[inner] = std::move(nestedRecord);
  }
  // The inner loops whose loop values the forward pass taped read them from
  // this iteration's block when recomputed.
  for (const Instr *inner : record.inner)
    innerTaped_.at(inner).base = Prim::make(Op::Mul, {tapePosition(record, Prim::make(Op::Sub, {index, record.lo})),
                                                      innerTaped_.at(inner).n});
  Expr g = bind(body, "d_body", localGradient(bodyOf(in), ctx, {{index, j}, {state, in.state}}, cts));
  for (const Instr *inner : record.inner) innerTaped_.at(inner).base = nullptr;
  for (const Instr *inner : record.nested) replayed_.erase(inner);
  enclosingReads_.pop_back();
  forgetTapes(record.valueTapes);
  std::vector<Expr> next{Proj::make(g, n + 1)};
  for (size_t k = 0; k < free.size(); ++k) next.push_back(accumulate(Proj::make(accVar, int(k) + 1), Proj::make(g, free[k])));
  Expr backward = Fold::make(record.lo, record.hi, ir::Tuple::make(init), j, acc,
                             unf::wrapLets(body, ir::Tuple::make(next)), !in.reversedLoop);
  // A J^T is linear in its incoming cotangent: with the state's cotangent
  // zero (a value that reaches the result only through an untaken branch),
  // every cotangent it computes is zero, and it is skipped. Running it
  // would compute 0 * inf = NaN wherever the forward loop overflowed.
  // Only a loop that is not itself inside a J^T (a test per run of the
  // loop, not per iteration of an enclosing one), that leaves no array to
  // restore (its J^T undoes the loop's stores) and whose body stores
  // nothing (an output's cotangent enters through its buffer).
  if (enclosingReads_.empty() && record.saved.empty() && record.copies.empty() &&
      std::all_of(terms.begin(), terms.end(), [&](const Term *b) { return storesNothing(*b, prog_); }))
    if (Expr nonzero = anyNonzero(ys[size_t(n)]))
      backward = If::make(nonzero, backward, ir::Tuple::make(init));
  Expr cotangents = bind(t.code, "d_" + in.state + "_loop", backward);
  restore(record.copies, t.code);
  t.cotangents.resize(size_t(n));
  t.cotangents[size_t(n - 1)] = accumulate(t.cotangents[size_t(n - 1)], Proj::make(cotangents, 0)); // the initial state
  for (size_t k = 0; k < free.size(); ++k)
    t.cotangents[size_t(free[k])] = accumulate(t.cotangents[size_t(free[k])], Proj::make(cotangents, int(k) + 1));
  precompose(Y, lets, t);
}

} // namespace unfad::ad::rev
