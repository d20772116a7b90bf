// Forward mode on Unary Normal Form: tangents (Jacobian-vector products).
//
// For every function marked UNFAD_JVP (ir::Function::tangent), after every
// helper it reaches has been inlined (inlining::inlineAll), produces
//   f$jvp   (params of f, d_p for each active parameter p) -> (R, dR)
// (a void f: ()), one sweep that computes each primitive's value and, next
// to it, its tangent from the table of partial derivatives
// (ad/derivatives.h), the same table reverse mode transposes. The tangent
// of a scalar parameter is a value, that of an array a buffer of the same
// type: read where the primal reads, written where the primal writes, so
// an output's or in/out array's tangent buffer ends holding the tangent of
// what f leaves there. Loops carry (state, tangent of the state); a
// conditional computes the tangent of the branch taken. No tape, no
// continuation: the optimiser and the printer take it as they are.
#pragma once

#include "unfad/ir/ir.h"

namespace unfad::ad {

inline std::string jvpFunctionName(const std::string &f) { return f + "$jvp"; }

// One f$jvp per tangent-marked function of `primal` (whose calls must have
// been inlined: a call left is an ir::IRError).
ir::Program forward(const ir::Program &primal);

} // namespace unfad::ad
