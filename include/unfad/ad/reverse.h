// Reverse mode on Unary Normal Form (Huot & Shaikhha, Fig. 8 and 10).
//
// For every marked function f of the program, and every helper g that a
// marked function reaches and that has active parameters, produces:
//   f$grad     (params of f) -> (R, A_1, ..., A_k)
//              the primal value and the cotangents of f's active parameters
//              for the seed 1 on the result;
//   g$pullback (params of g, d_return: R_g) -> (A_1, ..., A_k)
//              the cotangents of g's active parameters for the cotangent
//              d_return of g's result. Calls to g are differentiated through
//              ir::Pullback nodes that refer to it (compositional).
// The result still contains the linear continuations (lambdas); the
// optimiser removes them.
#pragma once

#include "unfad/ir/ir.h"

namespace unfad::ad {

inline std::string gradFunctionName(const std::string &f) { return f + "$grad"; }

// The generated functions (the pullbacks and gradients above), in
// dependency order: pullbacks first.
ir::Program reverse(const ir::Program &primal);

// Whether a loop whose body is a step over arrays (inner loops of
// straight-line code) tapes its inner loops' values per (step, element)
// instead of recomputing the step in its backward loop
// (rev/nested_tapes.cpp). On by default (unfad --tape-nested-loops=false
// turns it off).
void setTapeNestedLoops(bool on);

} // namespace unfad::ad
