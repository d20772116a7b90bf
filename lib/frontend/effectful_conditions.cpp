// Conditions with side effects. The right operand of `&&` / `||` with side
// effects (`if (done || ++iter > max)`), and the branches of `?:` with side
// effects (`c ? (++k, x) : y`), where statements can go before the
// expression: C++ runs them only when chosen, so each is a branch of an
// `if` of its own that carries its effects and yields its value with its
// versions of the locals assigned:
//   let r = if (l is undecided) { effects; (rhs, vars') } else (l, vars) in r.0
//
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

ir::Expr Lowering::lowerEffectfulRight(const BinaryOperator *b, const ir::Expr &left, Env &env) {
  const bool orElse = b->getOpcode() == BO_LOr;
  auto right = [&](Env &e) { return toBool(lowerExpr(b->getRHS(), e)); };
  auto decided = [&](Env &) -> ir::Expr { return ir::Const::makeBool(orElse); };
  return orElse ? choiceWithEffects(left, decided, right, env, "or_else")
                : choiceWithEffects(left, right, decided, env, "and_then");
}

// if (cond) then(env) else otherwise(env), where either side may have side
// effects: each runs on its own copy of the locals, its effects inside its
// branch, and the branch yields its value with its versions of the locals
// either side assigns; after it, those locals are the branch's.
ir::Expr Lowering::choiceWithEffects(const ir::Expr &cond, const std::function<ir::Expr(Env &)> &then,
                                     const std::function<ir::Expr(Env &)> &otherwise, Env &env, const std::string &hint) {
  Env thenEnv = env, elseEnv = env;
  Binds thenEffects, elseEffects;
  ir::Expr thenValue, elseValue;
  {
    EffectScope scope(*this, &thenEffects);
    thenValue = then(thenEnv);
  }
  {
    EffectScope scope(*this, &elseEffects);
    elseValue = otherwise(elseEnv);
  }
  std::vector<const VarDecl *> changed;
  for (const auto &[vd, e] : env) {
    auto t = thenEnv.find(vd), f = elseEnv.find(vd);
    if ((t != thenEnv.end() && t->second != e) || (f != elseEnv.end() && f->second != e)) changed.push_back(vd);
  }
  std::vector<ir::Expr> thenParts{thenValue}, elseParts{convert(elseValue, thenValue->type)};
  for (const VarDecl *vd : changed) {
    thenParts.push_back(thenEnv.at(vd));
    elseParts.push_back(elseEnv.at(vd));
  }
  ir::Expr joined = ir::If::make(cond, wrap(thenEffects, ir::Tuple::make(thenParts)),
                                 wrap(elseEffects, ir::Tuple::make(elseParts)));
  const std::string name = names_.fresh(hint);
  effects_->push_back({name, joined});
  const ir::Expr result = ir::Var::make(name, joined->type);
  for (size_t k = 0; k < changed.size(); ++k) {
    const std::string n = names_.fresh(changed[k]->getNameAsString());
    ir::Expr v = ir::Proj::make(result, int(k) + 1);
    effects_->push_back({n, v});
    env[changed[k]] = ir::Var::make(n, v->type);
  }
  return ir::Proj::make(result, 0);
}

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
