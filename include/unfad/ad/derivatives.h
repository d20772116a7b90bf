// The table of partial derivatives of the primitive operators, kept apart
// from the reverse traversal (as in Futhark's AD).
#pragma once

#include "unfad/ir/ir.h"
#include <vector>

namespace unfad::ad {

// ∂op/∂arg_k at (args), given the already computed result y = op(args).
// One entry per argument; nullptr where the partial is identically zero
// (predicates, floor/ceil/round/trunc, integer arithmetic).
std::vector<ir::Expr> partials(ir::Op op, const std::vector<ir::Expr> &args, const ir::Expr &y);

} // namespace unfad::ad
