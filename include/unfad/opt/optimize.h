// Partial evaluation and the algebraic rules of Huot & Shaikhha Fig. 12:
// beta-reduction of continuations, forward substitution, tuple projection,
// let normalisation, 0*e, 1*e, e+0, dead code elimination and CSE.
// After it no Lambda or App remains.
#pragma once

#include "unfad/ir/ir.h"

namespace unfad::opt {

ir::Expr optimize(const ir::Expr &e);
ir::Function optimize(const ir::Function &f);
// With the primal program, helpers known not to write their arguments let
// loops calling them (and their pullbacks) be fused with adjoint sweeps.
ir::Program optimize(const ir::Program &p, const ir::Program *primal = nullptr);

} // namespace unfad::opt
