// Structural equality of IR expressions.
#pragma once

#include "unfad/ir/ir.h"

namespace unfad::ir {

// Whether a and b are the same expression up to the names of the variables
// they bind (α-equivalence): same node kinds, types, operators, constants
// (bit for bit: 0.0 and -0.0 differ, every NaN equals every NaN) and free
// variables. Used wherever two expressions must compute the same thing
// (CSE of loops, equal indices), instead of comparing printed text.
bool alphaEqual(const Expr &a, const Expr &b);

} // namespace unfad::ir
