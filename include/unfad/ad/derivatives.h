// The table of partial derivatives of the primitive operators, kept apart
// from the reverse traversal (as in Futhark's AD).
#pragma once

#include "unfad/ir/ir.h"
#include <vector>

namespace unfad::ad {

// ∂op/∂arg_k at (args), given the already computed result y = op(args):
// one entry per argument, of y's type; nullptr where the partial is
// identically zero (predicates, floor/ceil/round/trunc/sign, integer
// arithmetic, an integer argument of a cast). The cotangent of arg_k is
// ∂_k · ȳ, converted to arg_k's type (only a cast changes the type).
// Every operator of ir::Op has a rule; one without a derivative throws
// ir::IRError.
std::vector<ir::Expr> partials(ir::Op op, const std::vector<ir::Expr> &args, const ir::Expr &y);

// Whether op's partials are written with its result y (exp' = exp,
// tanh' = 1 - tanh², ...) and op is a transcendental worth taping in a loop
// rather than recomputing: a tape read then replaces both the recomputation
// and, when nothing else needs them, its arguments'. (Division's partial
// reads y too, but a division is cheaper to redo than a tape to keep.)
bool partialsReadResult(ir::Op op);

// fmin(a, b) / fmax(a, b): whether the derivative goes to b (b wins, or a
// is NaN); on ties it goes to a. The partials above follow it, and so does
// the reverse rule of selection loops (rev/selection.cpp).
ir::Expr minMaxChoosesSecond(ir::Op op, const ir::Expr &a, const ir::Expr &b);

} // namespace unfad::ad
