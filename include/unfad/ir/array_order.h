// Which array parameters each function reads and writes, and the order rule
// reverse mode relies on for them.
//
// The reverse sweep recomputes loop bodies (and helpers, through their
// pullbacks) from the loop state and the arguments, reading the arrays as
// they are then: a parameter array must not change once it has been read
// (local arrays are saved and restored by reverse mode). Checked
// conservatively in evaluation order: a store (or a call that writes) after
// any read of the same array is a violation; loop bodies are walked twice so
// a read and a store in one loop conflict in either order; the branches of
// an `if` start from the same state.
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
};
// Keyed by Function::name.
using ArrayParamUses = std::map<std::string, ArrayParamUse>;

// The summaries of every function, to a fixpoint (helpers may be recursive).
// A call to a function not in `fns` reads and writes nothing.
ArrayParamUses arrayParamUses(const std::vector<const Function *> &fns);

struct ArrayOrderViolation {
  enum Kind {
    WrittenAfterRead,  // `array` is stored to (at a Store, or by a Call) after it was read
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
