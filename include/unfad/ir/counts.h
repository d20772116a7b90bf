// Integer counts built as IR (trip counts, numbers of stores, buffer
// lengths), folding what is constant. A null count is unknown: a sum,
// product or maximum with it is unknown too.
#pragma once

#include "unfad/ir/ir.h"

namespace unfad::ir {

Expr addCounts(const Expr &a, const Expr &b);
Expr mulCounts(const Expr &a, const Expr &b);
Expr maxCounts(const Expr &a, const Expr &b);

} // namespace unfad::ir
