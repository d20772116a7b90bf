// Which array parameters each function reads and writes, and which it
// writes after reading them (in/out parameters).
//
// The reverse sweep recomputes loop bodies (and helpers, through their
// pullbacks) from the loop state and the arguments, reading the arrays as
// they are then. An array parameter written after it was read is an in/out
// state: reverse mode saves what each store overwrites and puts it back,
// as for local arrays (Param::inout); one only read, or only written
// (an output), needs nothing. Found conservatively in evaluation order: a
// store (or a call that writes) after any read of the same array; loop
// bodies are walked twice so a read and a store in one loop conflict in
// either order; the branches of an `if` start from the same state. An
// argument to a callee's in/out parameter is in/out in the caller (the
// callee's pullback starts from the memory it was called with).
//
// Runs on the IR the front end makes (before differentiation); the front end
// maps the reported nodes back to source locations for its diagnostics.
#pragma once

#include "unfad/ir/ir.h"

#include <map>
#include <string>
#include <vector>

namespace unfad::ir {

// Per parameter of one function (false for non-array parameters): whether
// the function reads / writes that array, itself or through its callees.
struct ArrayParamUse {
  std::vector<bool> reads, writes;
  std::vector<bool> inout; // written after a read (itself or through a callee)
  // Added into (`a[i] += v`) where it has not been assigned on every path
  // before: its initial value reaches what the function leaves in it.
  std::vector<bool> accumulates;
};
// Keyed by Function::name.
using ArrayParamUses = std::map<std::string, ArrayParamUse>;

// The summaries of every function, to a fixpoint (helpers may be recursive).
// A call to a function not in `fns` reads and writes nothing.
ArrayParamUses arrayParamUses(const std::vector<const Function *> &fns);

struct ArrayOrderViolation {
  enum Kind {
    WrittenAfterRead,  // `array` is stored to (at a Store, or by a Call) after it was read, or given to a
                       // callee that reads and then writes it: in/out
    PassedTwiceToWriter, // `array` is passed twice to `callee`, which writes one of them
    RowWrittenByCallee, // `callee` writes an argument that is a row of an array of arrays
  };
  Kind kind;
  const Node *at = nullptr; // the Store or Call
  std::string array;        // the IR name of the array parameter (not for RowWrittenByCallee)
  std::string callee;       // for the violations at a Call
};

// The violations in `fn`, in evaluation order (a loop body's may repeat).
std::vector<ArrayOrderViolation> arrayOrderViolations(const Function &fn, const ArrayParamUses &uses);

} // namespace unfad::ir
