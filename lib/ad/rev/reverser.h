// Internal to lib/ad: the reverse-mode traversal of a UNF term, UNF^-1 of
// the Target UNF (Huot & Shaikhha, Fig. 10): every primitive F(P, J^T P) is
// run forward while the continuation Y is pre-composed with P's transpose
// Jacobian:
//
//   let x_{n+1} = P(x_1..x_n) in
//   let Y' = fun (y_1..y_{n+1}) -> Y(J^T P (y_1..y_{n+1})) in ...
//
// The gradient is Y_final(0, ..., 0, seed). The continuations are linear
// (each is applied once); the optimiser β-reduces them into SSA code.
//
// One file per construct (as Futhark's Rev/):
//   reverser.cpp       the traversal: forward part, continuations, dispatch
//   straight_line.cpp  J^T of var, op, tuple, projection, drop, a[i], stores
//   calls.cpp          J^T of helper calls (pullbacks); outputs not rewritten
//   branches.cpp       F(if, J^T if)
//   loops.cpp          F(fold, J^T fold) and F(while, J^T while)
//   selection.cpp      F(fold, J^T fold) of s = min(s, e_i): one winner
//   parallel.cpp       F(build, J^T build) and F(sum, J^T sum)
//   tapes.cpp          values a loop's forward pass tapes for its J^T
//   inner_values.cpp   and the loop values of its inner loops' bodies
//   nested_tapes.cpp   nested loops taped per (step, element)
//   invariant_state.cpp  their states that no step changes, taped once
//   induction.cpp      loop counters computed from the iteration, not taped
//   restore.cpp        local memory kept and put back for recomputations
//   cotangents.cpp     cotangent types and their sum
// The partials of the primitives are a table of their own (derivatives.cpp).
#pragma once

#include "unfad/ir/ir.h"
#include "unfad/unf/unf.h"

#include <functional>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace unfad::ad::rev {

using unf::Lets;

// A slot of the UNF context during the traversal.
struct Slot {
  ir::Expr value;   // forward value: a variable or a constant
  std::string hint; // readable name, for the slot's cotangent "d_<hint>"
};
using Stack = std::vector<Slot>;

// One instruction's J^T under construction: the new continuation
//   Y' = fun binders -> (code) Y(cotangents)
struct Transpose {
  std::vector<ir::Binder> binders; // y_1..y_m: cotangents of the slots after the instruction
  std::vector<ir::Expr> cotangents; // what Y receives; starts as the binders' variables
  Lets code;                        // the J^T's code, run inside Y'
};

// (array, the copy of its contents taken before it was overwritten)
using ArrayCopies = std::vector<std::pair<ir::Expr, ir::Expr>>;
// (instruction, its value): results taped by a loop's forward pass, or the
// tape holding them
using InstrValues = std::vector<std::pair<const unf::Instr *, ir::Expr>>;

// A store of a loop body (or branch) to a local array it also reads,
// instrumented to tape the index it stores at and the element it overwrites.
struct UndoSite {
  ir::Expr index, old; // tapes, one entry per iteration
  bool guarded;        // in a branch: index -1 when the iteration did not store
  bool atLoopIndex = false; // stores at the loop's own index: `index` is null
};

// One undo log for an array a loop overwrites at any depth (in nested loops,
// in branches): every store pushes (index, old element); `mark[at]` is the
// log's top when iteration `at` started. Sized once, before the loop.
struct UndoLog {
  ir::Expr index, old; // the log's entries
  ir::Expr top;        // a one-element cell: the number of entries
  ir::Expr mark;       // the top at each iteration's start
  // Or, for the one nested loop that stores at its own index (a dense
  // overwrite of [lo, lo + stride)): `old` holds stride elements per
  // iteration, at (iteration, index - lo); no index, top or mark.
  ir::Expr stride, lo;
  bool used() const { return top || stride; }
};

// A local array a loop writes, and how its J^T gets back the memory each
// iteration found.
struct SavedArray {
  ir::Expr array, len;
  ir::Expr perIteration;      // a copy of the whole array per iteration, or null
  std::vector<UndoSite> undo; // the stores of an iteration, in program order
  UndoLog log;                // or every store of an iteration, at any depth (log.top non-null)
  bool undone() const { return !undo.empty() || log.used(); }
};

// A selection loop (selection.cpp): the one instruction of its body that
// selects between the state and a value computed without it.
struct Selection {
  size_t at;           // its position in the body
  int stateArg;        // fmin/fmax: the argument that is the state (0 or 1)
  bool thenPicksValue; // if: the then-branch yields the value
  int valueSlot;       // the value's slot when the selection runs (-1: computed by the branch)
};

// What a loop's forward pass leaves for its J^T.
struct LoopRecord {
  ir::Expr lo, hi, n;                // bounds and the trip count (never negative)
  std::vector<ir::Expr> stateTapes;  // the state at each iteration's start, one per scalar leaf
  // Per leaf, for an integer advanced by a constant (induction.cpp): the
  // constant (its tape is null), else null. stateInit: the initial state.
  std::vector<ir::Expr> stateSteps;
  ir::Expr stateInit;
  InstrValues valueTapes;            // taped results of the body's calls and inner loops
  std::set<std::string> reads;       // the local arrays the body reads
  std::set<std::string> scratch;     // those it fills whole before its first read and reads after its last write
  ArrayCopies copies;                // arrays put back when the J^T is done
  std::vector<SavedArray> saved;     // every array the loop writes
  // Tapes shared by every iteration of an enclosing loop (nested_tapes.cpp):
  // this iteration's block starts at `base` (null: the tapes are this loop's own).
  ir::Expr base;
  // Its state tapes hold one sequence for every enclosing iteration
  // (invariant_state.cpp): read at the iteration alone, without `base`.
  bool invariantState = false;
  // The loops nested in this one's body that its forward pass tapes (their
  // records in Reverser::pretaped_): its J^T does not run them forward.
  std::vector<const unf::Instr *> nested;
  // The loops at the top level of its body whose loop values its forward
  // pass taped per (iteration, inner iteration) (inner_values.cpp): their
  // recomputations in its J^T read those tapes.
  std::vector<const unf::Instr *> inner;
};

// While a loop's forward pass is built the usual way (its J^T recomputes
// its body): where the loops at the top level of its body tape the loop
// values of their own bodies (inner_values.cpp).
struct InnerTaping {
  Lets *before;                // the tapes' allocations: before the loop
  ir::Expr outerN, outerAt;    // the loop's trip count and this iteration's position
  std::set<std::string> local; // its index and state (not invariant)
  std::vector<const unf::Instr *> loops; // the inner loops taped so far
};

// The tapes of one such inner loop: the values (instruction -> tape) at
// (base + iteration), base the enclosing iteration's position times n.
struct InnerTapes {
  InstrValues tapes;
  ir::Expr n;    // the inner loop's trip count, bound before the enclosing loop
  ir::Expr base; // set while the enclosing loop's J^T is built
};

// While a loop's forward pass is built: where its nested loops' tapes go.
// Nests deeper than two levels get one per level: a loop nested in a taped
// loop tapes at (its enclosing block, its iteration), all in tapes
// allocated before the outermost loop.
struct NestedTaping {
  Lets *before;                // the tapes' allocations: before the outermost loop
  ir::Expr outerN, outerAt;    // the enclosing loop's tape length and this iteration's position in it
  std::set<std::string> local; // the enclosing loops' indices and states (not invariant)
  std::vector<const Lets *> scopes; // the lets of the bodies and branches around the current one
  std::vector<const unf::Instr *> loops; // the nested loops taped so far
  bool *failed;                // a nested loop could not be taped: build the outermost loop as usual
  InstrValues *branchTapes;    // the tapes of values in branches ending the enclosing loop's body
  // The state sequences taped once before the outermost loop
  // (invariant_state.cpp): (the loop computing the sequence, its tape).
  std::vector<std::pair<ir::Expr, ir::Expr>> *invariant;
};

// `e`, computed in the enclosing loops' bodies (`scopes`), as the same value
// computed before the outermost loop, or null when it depends on an
// iteration (a name in `local`, memory) (nested_tapes.cpp).
ir::Expr hoisted(const ir::Expr &e, const std::vector<const Lets *> &scopes, const std::set<std::string> &local);

// The last `if` of `t` when only instructions whose J^T reads no forward
// value and no memory follow it (reverser.cpp): a body's local gradient
// does not run it forward.
const unf::Instr *endingBranch(const unf::Term &t);

// "d_<name>": the hint for the cotangent of a slot.
std::string cotangentHint(const Slot &slot);

// The trip count of [lo, hi), never negative (a loop may start past its bound).
ir::Expr tripCount(const ir::Expr &lo, const ir::Expr &hi);

// Whether calls to g need its pullback: it has active parameters and its
// result, or an array it writes, carries derivatives.
bool needsPullback(const ir::Function &g);

// Whether g updates an integer array parameter in place (an in/out one it
// writes): a recursion unlinking and relinking an index list.
bool updatesIntArrays(const ir::Function &g);

// The gradient's forward and reverse sweeps (`lets`: the forward code, the
// continuations in lambdas): when no continuation reads the in/out arrays
// `inout`, drops the continuations' stores into them and returns true: the
// arrays keep the forward sweep's final state, f need not run again
// (inout_state.cpp).
bool keepForwardInOutState(Lets &lets, const std::set<std::string> &inout);

class Reverser {
public:
  Reverser(const ir::Program &p, ir::NameSupply &names) : prog_(p), names_(names) {}

  // Runs term `t` from `stack`. With Y == nullptr only the forward values
  // are computed (Source UNF^-1); otherwise Y is pre-composed at each step.
  void build(const unf::Term &t, Stack &stack, ir::Expr *Y, Lets &lets);

  void setBuffer(const std::string &array, ir::Expr buffer) { buffers_[array] = std::move(buffer); }
  void setParamArray(const std::string &name) { params_.insert(name); }
  // An array parameter the function never writes (nor its callees).
  void setReadOnlyParam(const std::string &name) { readOnly_.insert(name); }
  // An in/out array parameter (Param::inout) is kept and restored like a
  // local array; `length` is null when C++ cannot tell it (a pointer).
  void setInOutArray(const std::string &name, ir::Expr length) { sizes_[name] = std::move(length); }
  void setPullback() { pullback_ = true; }
  // The instruction whose value is the result of a pullback's body (only
  // drops follow it): nothing reads its forward value, and its J^T
  // recomputes it from the memory it found, so a branch or a call there
  // is not run forward at all.
  void setUnusedResult(const unf::Instr *in) { unusedResults_.insert(in); }

private:
  const ir::Program &prog_;
  ir::NameSupply &names_;

  // Cotangent buffers of arrays (by the array variable's name): d_x for an
  // array parameter x, a zero buffer allocated beside each local array.
  // Array cotangents are accumulated in place; in the continuation an
  // array slot carries the unit cotangent.
  std::unordered_map<std::string, ir::Expr> buffers_;
  // Sizes of local arrays and in/out parameters (their contents are saved
  // and restored); null for an in/out pointer parameter.
  std::unordered_map<std::string, ir::Expr> sizes_;
  ir::Expr lengthOf(const std::string &array) const; // its size, or an error if unknown
  // The function's array parameters (their stores are not redone when a
  // body is recomputed).
  std::unordered_set<std::string> params_;
  std::unordered_set<std::string> readOnly_; // (setReadOnlyParam)
  int recomputing_ = 0;   // > 0 inside a local gradient (forward recomputed)
  bool pullback_ = false; // differentiating a helper: its call already wrote its outputs
  // The pullback's result (setUnusedResult, a scalar), and the branches
  // that end the bodies whose local gradients are being built (see
  // localGradient).
  std::unordered_set<const unf::Instr *> unusedResults_;
  bool skipsForward(const unf::Instr &in) const;

  // Values a loop's forward pass tapes besides its state (tapes.cpp).
  std::unordered_map<const unf::Instr *, ir::Expr> taped_; // instr -> tape read (recomputation)
  InstrValues *capture_ = nullptr;                         // instr -> value (forward pass)

  // The local arrays read by the loops whose bodies are being recomputed
  // (innermost last).
  struct Enclosing {
    const std::set<std::string> *reads;   // the local arrays its body reads
    const std::set<std::string> *scratch; // its LoopRecord::scratch
    std::set<std::string> known;        // the local arrays allocated outside it
  };
  std::vector<Enclosing> enclosingReads_;

  // --- the traversal (reverser.cpp)
  std::string fresh(const std::string &hint) { return names_.fresh(hint); }
  ir::Expr bind(Lets &lets, const std::string &hint, ir::Expr value);
  // Whether forward code being generated repeats writes to parameter arrays
  // already done (a recomputation, or a helper's pullback after its call).
  bool replaying() const { return recomputing_ > 0 || pullback_; }
  void step(const unf::Instr &in, Stack &stack, ir::Expr *Y, Lets &lets);
  void forwardStep(const unf::Instr &in, Stack &stack, Lets &lets);
  bool skipReplayedWrite(const unf::Instr &in, Stack &stack);
  void allocateBuffers(const unf::Instr &in, Stack &stack, const std::vector<ir::Expr> &values, Lets &lets);
  void forwardPart(const unf::Instr &in, Stack &stack, Lets &lets, const ir::Expr &forced);
  std::vector<ir::Binder> cotangentBinders(const Stack &stack);
  Transpose openTranspose(const Stack &stack);
  void precompose(ir::Expr *Y, Lets &lets, Transpose &t);
  ir::Expr localGradient(const unf::Term &t, const Stack &ctx, const Stack &extra, const std::vector<ir::Expr> &cts,
                         bool wholeBody = true);
  ir::Expr forwardOnly(const unf::Term &t, const Stack &stack);
  ir::Expr bufferOf(const ir::Expr &array);
  static std::vector<int> slotsWithCotangents(const std::vector<const unf::Term *> &terms, const Stack &stack, int n);

  // --- straight-line instructions (straight_line.cpp)
  void straightLine(const unf::Instr &in, Stack &stack, ir::Expr *Y, Lets &lets, const ir::Expr &forced);
  void transposeVar(const unf::Instr &in, Transpose &t);
  void transposeOp(const unf::Instr &in, const Stack &before, const ir::Expr &result, Transpose &t);
  void transposeElem(const unf::Instr &in, Transpose &t);
  void transposeTuple(const unf::Instr &in, Transpose &t);
  void transposeDrop(const unf::Instr &in, const Stack &before, Transpose &t);
  void transposeIndex(const unf::Instr &in, const Stack &before, Transpose &t);
  void store(const unf::Instr &in, Stack &stack, ir::Expr *Y, Lets &lets, const ir::Expr &forced);

  // --- a local array resized (resize.cpp)
  void resize(const unf::Instr &in, Stack &stack, ir::Expr *Y, Lets &lets, const ir::Expr &forced);
  bool localResize(const unf::Instr &in, const Stack &stack) const;
  void resizeBuffer(const unf::Instr &in, const Stack &stack, Lets &lets);
  std::unordered_map<std::string, int> allocatedAt_; // local array -> recomputing_ where it was allocated

  // --- calls (calls.cpp)
  void call(const unf::Instr &in, Stack &stack, ir::Expr *Y, Lets &lets, const ir::Expr &forced);
  void transposeCall(const unf::Instr &in, const Stack &before, Transpose &t);
  ArrayCopies snapshotArgs(const unf::Instr &in, const Stack &stack, bool inout, Lets &lets);
  bool readsIntMemoryAfter(const unf::Instr &in) const;
  const unf::Term *term_ = nullptr; // the term `build` is running (innermost)
  bool writesOutput(const std::string &callee, const std::vector<ir::Expr> &args) const;
  // `e` without its stores to parameter arrays, calls writing only outputs
  // and throws: what a replay of forward code need not redo (calls.cpp).
  ir::Expr withoutOutputStores(const ir::Expr &e) const;

  // --- branches (branches.cpp)
  void branch(const unf::Instr &in, Stack &stack, ir::Expr *Y, Lets &lets, const ir::Expr &forced);
  ir::Expr logBranchStores(const ir::Expr &value, const ir::Expr &array, const Stack &before, Lets &lets, UndoLog &log);

  // --- loops (loops.cpp)
  void loop(const unf::Instr &in, Stack &stack, ir::Expr *Y, Lets &lets, const ir::Expr &forced);
  std::optional<Selection> selectionOf(const unf::Instr &loop, int n) const;
  ir::Expr selectionForward(const unf::Instr &in, const Stack &stack, const Selection &sel, ir::Expr &winner,
                            Lets &lets);
  void selectionLoop(const unf::Instr &in, Stack &stack, ir::Expr *Y, Lets &lets, const ir::Expr &forced,
                     const Selection &sel);
  ir::Expr countIterations(const unf::Instr &in, const Stack &stack, Lets &lets, ArrayCopies &beforeCount);
  ir::Expr loopForward(const unf::Instr &in, const Stack &stack, Lets &lets, LoopRecord &record);
  void saveWrittenArrays(const unf::Instr &in, const Stack &stack, const Stack &bodyStack, ir::Expr &body,
                         Lets &iterationStart, const ir::Expr &at, Lets &lets, LoopRecord &record);
  ir::Expr restoreIteration(const unf::Instr &in, const LoopRecord &record, const ir::Expr &index, Lets &body);
  void loopTranspose(const unf::Instr &in, Stack &stack, int n, ir::Expr *Y, Lets &lets, LoopRecord &record);

  // --- build and sum (parallel.cpp)
  void parallel(const unf::Instr &in, Stack &stack, ir::Expr *Y, Lets &lets, const ir::Expr &forced);
  InstrValues sumWithTapes(const unf::Instr &in, Stack &stack, const ir::Expr &lo, const ir::Expr &hi, Lets &lets);
  void parallelTranspose(const unf::Instr &in, const Stack &stack, int n, const ir::Expr &lo, const ir::Expr &buffer,
                         const InstrValues &valueTapes, Transpose &t, const ir::Expr &base = nullptr);

  // --- values taped by loops (tapes.cpp)
  static bool worthTaping(const unf::Instr &in);
  static bool worthTapingInSum(const unf::Instr &in);
  ir::Expr forwardCapturing(const unf::Term &t, const Stack &stack, Lets &out, InstrValues &captured,
                            bool (*worth)(const unf::Instr &) = worthTaping);
  std::vector<const unf::Instr *> intReadsAfterUpdates(const unf::Term &t, bool (*worth)(const unf::Instr &)) const;
  InstrValues tapeValues(const InstrValues &captured, const ir::Expr &n, const ir::Expr &at, Lets &lets, Lets &body);
  void captureValue(const unf::Instr &in, const Stack &stack);
  ir::Expr tapedValue(const unf::Instr &in, Lets &lets);
  void readTapes(const InstrValues &valueTapes, const ir::Expr &at);
  void forgetTapes(const InstrValues &valueTapes);

  // --- loop values of inner loops' bodies taped by the enclosing loop (inner_values.cpp)
  InnerTaping *inner_ = nullptr; // set while the top level of such a loop's body is built forward
  std::unordered_map<const unf::Instr *, InnerTapes> innerTaped_;  // inner loop -> its tapes
  std::unordered_map<const unf::Instr *, ir::Expr> forwardTaped_; // instr -> tape read, in forward code
  static bool worthTapingTwoDeep(const unf::Instr &in);
  bool innerLoopForward(const unf::Instr &in, Stack &stack, Lets &lets);
  bool forcedForward(const unf::Instr &in, Stack &stack, Lets &lets);
  void readInnerTapes(const unf::Instr &loop, const ir::Expr &at);
  void forgetInnerTapes(const unf::Instr &loop);

  // --- nested loops taped across their enclosing loop (nested_tapes.cpp)
  NestedTaping *nested_ = nullptr; // set while the top level of such a loop's body is built forward
  std::unordered_map<const unf::Instr *, LoopRecord> pretaped_; // nested loop -> its record
  std::unordered_map<const unf::Instr *, LoopRecord> replayed_; // during the enclosing J^T: with its base
  bool tapesNestedLoops(const unf::Instr &loop) const;

public:
  static bool tapeableNested(const unf::Instr &in);

private:
  static bool worthTapingOrRead(const unf::Instr &in);
  bool readsConstantParam(const unf::Instr &in, const Stack &stack) const;
  bool nestedLoopForward(const unf::Instr &in, Stack &stack, Lets &lets);
  bool nestedBranchForward(const unf::Instr &in, Stack &stack, Lets &lets);
  bool nestedSumForward(const unf::Instr &in, Stack &stack, Lets &lets);
  bool nestedRecord(const ir::Expr &lo, const ir::Expr &hi, bool tapeable, Lets &lets,
                    std::vector<const Lets *> &scopes, LoopRecord &record);
  ir::Expr nestedPosition(const LoopRecord &record, const ir::Expr &index);
  static ir::Expr tapePosition(const LoopRecord &record, const ir::Expr &at);

  // --- induction variables: loop states not taped (induction.cpp)
  static std::vector<ir::Expr> inductionSteps(const std::vector<ir::Expr> &leaves, const Lets &bodyLets,
                                              const ir::Expr &next);
  static ir::Expr inductionState(const unf::Instr &in, const LoopRecord &record, const ir::Expr &index,
                                 const ir::Expr &init, const ir::Expr &step);

  // --- nested loop states that no enclosing iteration changes (invariant_state.cpp)
  ir::Expr invariantStateTape(const unf::Instr &in, const ir::Expr &init, const LoopRecord &record,
                              const ir::Expr &index, const ir::Expr &state, const Lets &bodyLets,
                              const ir::Expr &next, const std::vector<const Lets *> &scopes);

  // --- local memory kept and restored (restore.cpp)
  void localArrays(const ir::Expr &e, std::set<std::string> &read, std::set<std::string> &written);
  bool rewritesBeforeReading(const ir::Expr &body, const std::string &array) const;
  bool writesBeforeReads(const ir::Expr &body, const std::string &array);
  ir::Expr tapeOverwrites(const ir::Expr &e, const ir::Expr &array, const ir::Expr &n, const ir::Expr &at, Lets &lets,
                          Lets &iterationStart, std::vector<UndoSite> &sites, const ir::Expr &loopIndex = nullptr);
  void undoStores(const ir::Expr &array, const std::vector<UndoSite> &sites, const ir::Expr &at, Lets &out,
                  const ir::Expr &loopIndex = nullptr);

  // --- undo logs of stores at any depth (undo_log.cpp)
  ir::Expr logOverwrites(const ir::Expr &e, const ir::Expr &array, const LoopRecord &record, const Stack &bodyStack,
                         const ir::Expr &at, Lets &lets, Lets &iterationStart, UndoLog &log);
  ir::Expr logCapacity(const ir::Expr &perIteration, const LoopRecord &record, const ir::Expr &index);
  ir::Expr logStores(const ir::Expr &e, const ir::Expr &array, const UndoLog &log, size_t &logged);
  ir::Expr logDenseSweep(const ir::Expr &e, const ir::Expr &array, const LoopRecord &record, const ir::Expr &at,
                         const std::function<ir::Expr(const ir::Expr &)> &resolve, const std::string &outerIndex,
                         Lets &lets, UndoLog &log);
  void undoLogged(const ir::Expr &array, const UndoLog &log, const ir::Expr &at, Lets &out);
  size_t writesTo(const ir::Expr &e, const std::string &array) const;
  ArrayCopies snapshot(const std::set<std::string> &names, const Stack &stack, Lets &lets);
  static ir::Expr arrayNamed(const std::string &name, const Stack &stack);
  void restore(const ArrayCopies &copies, Lets &lets);
  ir::Expr copyLoop(const ir::Expr &dst, const ir::Expr &dstOffset, const ir::Expr &src, const ir::Expr &srcOffset,
                    const ir::Expr &len);
};

} // namespace unfad::ad::rev
