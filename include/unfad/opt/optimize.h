// The optimiser: partial evaluation and the algebraic rules of Huot &
// Shaikhha Fig. 12 (beta-reduction of continuations, forward substitution,
// tuple projection, let normalisation, 0*e, 1*e, e+0, CSE), dead code
// elimination and the loop rewrites; the passes are in passes.h, their
// order in lib/opt/pipeline.cpp. After it no Lambda or App remains.
#pragma once

#include "unfad/ir/ir.h"

#include <string>

namespace unfad::opt {

ir::Expr optimize(const ir::Expr &e);
ir::Function optimize(const ir::Function &f);
// With the primal program, helpers known not to write their arguments let
// loops calling them (and their pullbacks) be fused with adjoint sweeps.
ir::Program optimize(const ir::Program &p, const ir::Program *primal = nullptr);
// The same, stopped right after the first run of the pass named `stopAfter`
// (one of passNames()).
ir::Program optimizeUpTo(const ir::Program &p, const ir::Program *primal, const std::string &stopAfter);

} // namespace unfad::opt
