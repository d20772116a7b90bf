// Helpers shared by the IR-level unit tests.
#pragma once

#include "unfad/ir/ir.h"
#include "unfad/ir/mutator.h"

namespace unfad::test {

// Whether a continuation (lambda or application) is left in `e`: the
// optimiser must remove all of them.
inline bool hasLambda(const ir::Expr &e) {
  struct L : ir::Visitor {
    bool found = false;
    void visit(const ir::Lambda *) override { found = true; }
    void visit(const ir::App *) override { found = true; }
  } l;
  l.visitExpr(e);
  return l.found;
}

} // namespace unfad::test
