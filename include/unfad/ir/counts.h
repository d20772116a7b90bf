// Integer counts built as IR (trip counts, numbers of stores, buffer
// lengths), folding what is constant. A null count is unknown: a sum,
// product or maximum with it is unknown too.
#pragma once

#include "unfad/ir/ir.h"

#include <set>
#include <string>

namespace unfad::ir {

Expr addCounts(const Expr &a, const Expr &b);
Expr mulCounts(const Expr &a, const Expr &b);
Expr maxCounts(const Expr &a, const Expr &b);
// hi - lo for integer index expressions, with the terms they share
// cancelled: `(i + 1) * d - i * d` is `d` (each side expanded into a sum of
// products of its leaves; hi - lo as written when a side is too large).
Expr differenceOf(const Expr &hi, const Expr &lo);
// Scalar code that may be evaluated before the loop (or the scope) it is
// written in, to bound it: no memory read but an array's size, no integer
// division but by a constant (it could trap where the loop would not have
// run it). With `readable`, also reads of those arrays (each guarded by the
// caller: it may read where the program would not) and numbers read from
// passive data (Opaque, pure).
bool hoistableScalar(const Expr &e, const std::set<std::string> *readable = nullptr);

} // namespace unfad::ir
