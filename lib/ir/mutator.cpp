// The generic traversals: every node kind's default visit walks the children
// that forEachChild (traverse.h) lists, so neither class names a child itself.
#include "unfad/ir/mutator.h"
#include "unfad/ir/traverse.h"

namespace unfad::ir {

Expr Mutator::mutate(const Expr &e) {
  switch (e->kind) {
#define UNFAD_X(N) case Kind::N: return visit(static_cast<const N *>(e.get()), e);
    UNFAD_IR_NODES(UNFAD_X)
#undef UNFAD_X
  }
  return e;
}

std::vector<Expr> Mutator::mutateAll(const std::vector<Expr> &es, bool &changed) {
  std::vector<Expr> out;
  out.reserve(es.size());
  for (auto &e : es) {
    out.push_back(mutate(e));
    changed |= out.back() != e;
  }
  return out;
}

Expr Mutator::mutateChildren(const Expr &self) {
  std::vector<Expr> kids;
  bool changed = false;
  forEachChild(*self, [&](const Expr &c) {
    kids.push_back(mutate(c));
    changed |= kids.back() != c;
  });
  return changed ? rebuild(self, kids) : self;
}

#define UNFAD_X(N)                                                                                           \
  Expr Mutator::visit(const N *, const Expr &self) { return mutateChildren(self); }
UNFAD_IR_NODES(UNFAD_X)
#undef UNFAD_X

void Visitor::visitExpr(const Expr &e) {
  switch (e->kind) {
#define UNFAD_X(N) case Kind::N: visit(static_cast<const N *>(e.get())); return;
    UNFAD_IR_NODES(UNFAD_X)
#undef UNFAD_X
  }
}

#define UNFAD_X(N)                                                                                           \
  void Visitor::visit(const N *n) {                                                                          \
    forEachChild(*n, [this](const Expr &c) { visitExpr(c); });                                               \
  }
UNFAD_IR_NODES(UNFAD_X)
#undef UNFAD_X

} // namespace unfad::ir
