// An object of a class owning std::vectors chosen by `?:`, as C++ picks one
// of two matrices to read:
//
//   const Mat& m = use_first ? a : b;     // or: Mat m = use_first ? a : b;
//   s += m(0, 1) * m(1, 0);
//
// A copy of the chosen object: its number members are `c ? a.n : b.n`, each
// vector member a fresh array of the chosen one's size filled element by
// element with `c ? a[j] : b[j]` (an array itself is never chosen at run
// time: every array of the IR is one variable, so a store or an adjoint
// knows where it goes). A const reference is read as such a copy when
// nothing writes either object while the reference lives (the statements
// after it in its block); otherwise, and for a non-const reference (a write
// through it must land on the chosen object), it is refused at the
// declaration.
#include "lowering.h"

#include <clang/AST/ParentMapContext.h>

namespace unfad::frontend {

using namespace clang;

// The `?:` choosing the object `vd` is initialised from (a class owning
// vectors), or null.
const ConditionalOperator *Lowering::chosenObject(const VarDecl *vd) {
  QualType t = vd->getType().getNonReferenceType();
  if (!vd->getInit() || !hasVectorMember(t)) return nullptr;
  return dyn_cast<ConditionalOperator>(stripCopies(vd->getInit()));
}

// Whether the statements after `vd`'s declaration in its block may write
// `v` (true when the block is not known).
bool Lowering::writtenWhileBound(const VarDecl *vd, const VarDecl *v) {
  auto parents = ctx_.getParents(*vd);
  const auto *decl = parents.empty() ? nullptr : parents[0].get<DeclStmt>();
  if (!decl) return true;
  auto up = ctx_.getParents(*decl);
  const auto *block = up.empty() ? nullptr : up[0].get<CompoundStmt>();
  if (!block) return true;
  bool after = false;
  for (const Stmt *s : block->body()) {
    if (after && writes(s, v)) return true;
    after = after || s == decl;
  }
  return false;
}

ir::Expr Lowering::lowerChosenObjectLocal(const VarDecl *vd, const ConditionalOperator *co, Env &env, const Tail &k) {
  QualType t = vd->getType().getNonReferenceType();
  SourceLocation loc = vd->getLocation();
  const std::string spelled = "'" + typeStr(t.getUnqualifiedType()) + "'";
  const bool reference = vd->getType()->isReferenceType();
  if (reference && !t.isConstQualified())
    fail(loc, "a non-const reference to one of two objects of " + spelled + " chosen by '?:' is not supported (write "
              "through each object in the branches of an 'if')");
  if (reference)
    for (const Expr *arm : {co->getTrueExpr(), co->getFalseExpr()}) {
      const auto *d = dyn_cast<DeclRefExpr>(arm->IgnoreParenImpCasts());
      const auto *v = d ? dyn_cast<VarDecl>(d->getDecl()) : nullptr;
      if (!v || writtenWhileBound(vd, v))
        fail(arm->getExprLoc(), "a reference to one of two objects of " + spelled + " chosen by '?:' is read as a copy "
                                "of the chosen one, so each must be a variable nothing writes while the reference "
                                "lives (copy it: '" + typeStr(t.getUnqualifiedType()) + " " + vd->getNameAsString() +
                                " = ...')");
    }
  Binds pre;
  std::vector<ir::Expr> whenTrue, whenFalse;
  ir::Expr chosen;
  {
    EffectScope scope(*this, &pre);
    chosen = toBool(lowerExpr(co->getCond(), env));
  }
  const std::string c = names_.fresh("chosen");
  pre.push_back({c, chosen});
  chosen = ir::Var::make(c, ir::Type::boolean());
  {
    EffectScope scope(*this, &pre);
    whenTrue = viewValues(co->getTrueExpr(), t, env);
    whenFalse = viewValues(co->getFalseExpr(), t, env);
  }
  std::vector<ViewLeaf> leaves = viewLeaves(t);
  std::vector<ir::Expr> vals;
  for (size_t l = 0; l < leaves.size(); ++l) {
    if (leaves[l].pointer || !leaves[l].views.isNull() || !whenTrue[l] || !whenFalse[l])
      fail(loc, "objects of " + spelled + " chosen by '?:' are supported only when their members are numbers and "
                "std::vectors of numbers");
    ir::Expr value = ir::If::make(chosen, whenTrue[l], whenFalse[l]);
    // (a copy's vectors are copied by bindViewLeaves, a reference's here)
    if (leaves[l].vector && reference) value = copyVectorLeaf(leafVar(vd, leaves[l].path, leaves[l].type), value, pre);
    vals.push_back(value);
  }
  Binds binds;
  viewReadOnly_.erase(vd);
  bindViewLeaves(vd, t, vals, env, binds, nullptr);
  pre.insert(pre.end(), binds.begin(), binds.end());
  return wrap(pre, k(env));
}

} // namespace unfad::frontend
