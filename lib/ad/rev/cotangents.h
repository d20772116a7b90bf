// Internal to lib/ad: cotangent types and their arithmetic. A float is its
// own cotangent; a tuple's cotangent is the tuple of its elements'
// cotangents (a struct of floats stays the struct); an integer, a boolean
// and an array (whose cotangent lives in a buffer, accumulated in place)
// have the unit () as theirs.
#pragma once

#include "unfad/ir/ir.h"

namespace unfad::ad::rev {

ir::TypeP cotangentType(const ir::TypeP &t);

// A tuple of type `t`: a struct initialisation when `t` is a struct.
ir::Expr makeTuple(const ir::TypeP &t, std::vector<ir::Expr> elems);

// The cotangent sum a + b of two cotangents of one type: the monoid "+" of
// the paper's Fig. 5, lifted to tuples componentwise:
//   (a_1, ..., a_n) + (b_1, ..., b_n) = (a_1 + b_1, ..., a_n + b_n).
// Every "y += ..." of a transpose Jacobian goes through it.
ir::Expr accumulate(const ir::Expr &a, const ir::Expr &b);

// Adjoint arrays hold elements of the primal's type (an array of structs
// has an array of structs as its adjoint), while a struct with passive
// fields has a plain tuple as its cotangent. These convert between the two:
// passive leaves are 0 in an adjoint element and the unit in a cotangent.
ir::Expr asElement(const ir::Expr &cotangent, const ir::TypeP &elementType);
ir::Expr asCotangent(const ir::Expr &element);

} // namespace unfad::ad::rev
