// F(if, J^T if) (§7.2): the forward pass records the branch taken; the
// continuation stays linear and runs only the taken branch's local gradient:
//   Y' = fun ys -> Y(if b then ∇branch1(ys) else ∇branch2(ys))
#include "reverser.h"

namespace unfad::ad::rev {

using namespace unfad::ir;
using unf::Instr;

namespace {

// What a branch overwrote in local arrays, kept for its J^T.
struct BranchMemory {
  ArrayCopies copies; // arrays copied whole before the `if`
  std::vector<std::pair<Expr, std::vector<UndoSite>>> undo; // (array, its stores' sites)
  std::vector<std::pair<Expr, UndoLog>> logs; // (array, the log of its stores in nested loops)
};

} // namespace

// The stores of a branch into `array` in loops nested in it, in an undo log
// (as one iteration of a loop's: see undo_log.cpp); null when it cannot be
// sized before the `if`. Cheaper than a copy of the array, and the only way
// for an in/out pointer parameter, whose length is unknown.
Expr Reverser::logBranchStores(const Expr &value, const Expr &array, const Stack &before, Lets &lets, UndoLog &log) {
  LoopRecord once;
  once.lo = Const::makeInt(0);
  once.hi = once.n = Const::makeInt(1);
  Stack stack = before; // (an index and a state the branch does not have)
  stack.push_back({Var::make(fresh("branch"), Type::i64()), "branch"});
  stack.push_back({Var::make(fresh("branch_state"), Type::unit()), "branch_state"});
  Lets start;
  Expr logged = logOverwrites(value, array, once, stack, Const::makeInt(0), lets, start, log);
  if (!logged) return nullptr;
  lets.insert(lets.end(), start.begin(), start.end());
  return logged;
}

void Reverser::branch(const Instr &in, Stack &stack, Expr *Y, Lets &lets, const Expr &forced) {
  const Stack before = stack;
  // Every local array a branch writes: a loop before the `if`, recomputed
  // later in the sweep, may read what the branch overwrote. The J^T
  // recomputes the branch from the memory it started from: the elements
  // its stores overwrite are kept (in one-entry tapes) and put back before
  // the J^T; arrays written otherwise (in a loop in the branch) are copied
  // whole.
  std::set<std::string> read, written;
  if (skipsForward(in)) { // (see setUnusedResult: nothing ran, nothing to put back)
    stack.push_back({Const::zero(in.type), in.hint});
  } else {
    for (auto &b : in.branches) localArrays(forwardOnly(b, stack), read, written);
    forwardPart(in, stack, lets, forced);
  }
  BranchMemory memory;
  if (!written.empty()) {
    auto [name, value] = lets.back(); // the `if`
    lets.pop_back();
    std::set<std::string> whole;
    for (auto &a : written) {
      Expr array = arrayNamed(a, before);
      if (!array) continue;
      std::vector<UndoSite> sites;
      Lets starts;
      UndoLog log;
      if (Expr instrumented =
              tapeOverwrites(value, array, Const::makeInt(1), Const::makeInt(0), lets, starts, sites)) {
        value = instrumented;
        lets.insert(lets.end(), starts.begin(), starts.end());
        memory.undo.push_back({array, sites});
      } else if (Expr logged = logBranchStores(value, array, before, lets, log)) {
        value = logged;
        memory.logs.push_back({array, log});
      } else {
        whole.insert(a);
      }
    }
    memory.copies = snapshot(whole, before, lets);
    lets.push_back({name, value});
  }
  Transpose t = openTranspose(stack);
  restore(memory.copies, t.code);
  for (auto &[array, sites] : memory.undo) undoStores(array, sites, Const::makeInt(0), t.code);
  for (auto &[array, log] : memory.logs) undoLogged(array, log, Const::makeInt(0), t.code);
  Expr gradients[2];
  for (int k = 0; k < 2; ++k) gradients[k] = localGradient(in.branches[size_t(k)], before, {}, t.cotangents);
  Expr cond = before.back().value;
  Expr g = bind(t.code, "d_branch", If::make(cond, gradients[0], gradients[1]));
  t.cotangents.clear();
  for (int j = 0; j < int(before.size()); ++j) t.cotangents.push_back(Proj::make(g, j));
  precompose(Y, lets, t);
}

} // namespace unfad::ad::rev
