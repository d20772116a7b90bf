// Generic traversal of the IR, generated from UNFAD_IR_NODES.
// A Mutator returns the same node when none of its children changed.
#pragma once

#include "unfad/ir/ir.h"

namespace unfad::ir {

class Mutator {
public:
  virtual ~Mutator() = default;
  virtual Expr mutate(const Expr &e);

protected:
#define UNFAD_X(N) virtual Expr visit(const N *n, const Expr &self);
  UNFAD_IR_NODES(UNFAD_X)
#undef UNFAD_X
  // Mutates each child and rebuilds the node; `self` when no child changed.
  Expr mutateChildren(const Expr &self);
  // Mutates each of `es`; sets `changed` when one is not pointer-equal.
  std::vector<Expr> mutateAll(const std::vector<Expr> &es, bool &changed);
};

// Read-only traversal; override the kinds you care about and call
// Visitor::visit to descend.
class Visitor {
public:
  virtual ~Visitor() = default;
  virtual void visitExpr(const Expr &e);

protected:
#define UNFAD_X(N) virtual void visit(const N *n);
  UNFAD_IR_NODES(UNFAD_X)
#undef UNFAD_X
};

} // namespace unfad::ir
