// Loop conditions with side effects: `while (n--)`, `while (k++ < n)`,
// `do { ... } while (--left)`, `for (; i-- > 0;)`, `while (next(k))` with
// `next(int& k)`.
//
// C++ evaluates such a condition, effects included, before each iteration
// (after the body for `do`, after the increment for `for`). That is the
// life of a condition variable (loops.cpp: declared before the loop and
// again at the end of each iteration), so the condition becomes one: a
// synthetic `bool` VarDecl initialised with the condition, whose
// initialiser is a full expression (its effects are lets, as in any
// declaration), and the loop tests the variable. Its value and the
// variables the condition modifies are loop state.
#include "lowering.h"

#include <clang/AST/ParentMapContext.h>
#include <clang/AST/RecursiveASTVisitor.h>

namespace unfad::frontend {

using namespace clang;

namespace {

class EffectFinder : public RecursiveASTVisitor<EffectFinder> {
public:
  bool found = false;
  std::vector<const FunctionDecl *> callees;
  bool VisitUnaryOperator(UnaryOperator *u) {
    found |= u->isIncrementDecrementOp();
    return !found;
  }
  bool VisitBinaryOperator(BinaryOperator *b) {
    found |= b->isAssignmentOp();
    return !found;
  }
  bool VisitCallExpr(CallExpr *c) {
    if (const FunctionDecl *fd = c->getDirectCallee(); fd && fd->getDefinition()) callees.push_back(fd);
    return true;
  }
  bool TraverseLambdaExpr(LambdaExpr *) { return true; } // (a lambda's body runs when called)
};

} // namespace

bool Lowering::conditionHasEffects(const Expr *cond) {
  EffectFinder f;
  f.TraverseStmt(const_cast<Expr *>(cond));
  return f.found || llvm::any_of(f.callees, [&](const FunctionDecl *fd) { return takesOutReference(fd); });
}

// `cond` as the declaration of a synthetic condition variable, and the
// reference to it that the loop tests.
const DeclStmt *Lowering::conditionAsVariable(const Expr *cond, const Expr *&test) {
  SourceLocation loc = cond->getExprLoc();
  DeclContext *dc = ctx_.getTranslationUnitDecl(); // the function around the loop, for a local's storage
  for (DynTypedNodeList ps = ctx_.getParents(*cond); !ps.empty(); ps = ctx_.getParents(ps[0])) {
    if (const auto *fd = ps[0].get<FunctionDecl>()) {
      dc = const_cast<FunctionDecl *>(fd);
      break;
    }
  }
  auto *vd = VarDecl::Create(ctx_, dc, loc, loc, &ctx_.Idents.get("condition"), ctx_.BoolTy,
                             ctx_.getTrivialTypeSourceInfo(ctx_.BoolTy), SC_None);
  Expr *init = const_cast<Expr *>(cond);
  if (!init->getType()->isBooleanType()) // (Sema converted while/for/do conditions already)
    init = ImplicitCastExpr::Create(ctx_, ctx_.BoolTy, CK_IntegralToBoolean, init, nullptr, VK_PRValue,
                                    FPOptionsOverride());
  vd->setInit(init);
  test = DeclRefExpr::Create(ctx_, NestedNameSpecifierLoc(), SourceLocation(), vd, false, loc, ctx_.BoolTy, VK_LValue);
  return new (ctx_) DeclStmt(DeclGroupRef(vd), loc, loc);
}

} // namespace unfad::frontend
