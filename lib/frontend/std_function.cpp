// std::function as numerical code uses it: a helper taking a callable by
// type-erased wrapper,
//
//   double integrate(const std::function<double(double)>& g, double a, double b, int n) {
//     ... s += g(a + i * h); ...
//   }
//   UNFAD_GRADIENT double f(double k) { return integrate([&](double t) { return std::exp(-k * t); }, 0, 1, 100); }
//
// and a local holding a lambda (`std::function<double(double)> g = [&](double t) {...};`).
// Type erasure happens at run time; here every std::function is built from a
// callable the lowering sees (a lambda, a local or parameter holding one, a
// functor, a function's name), so it *is* that callable: the helper is
// lowered into its caller (lambdas.cpp's template path), its std::function
// parameter bound to the callable (closures_ / functions_), and `g(t)` lowers
// the callable's body in place, as for a lambda given to a template. Nothing
// of the wrapper is left in the generated code.
#include "lowering.h"

#include <clang/AST/DeclCXX.h>

namespace unfad::frontend {

using namespace clang;

bool isStdFunction(QualType t) {
  const auto *rd = t.getNonReferenceType()->getAsCXXRecordDecl();
  return rd && rd->isInStdNamespace() && rd->getIdentifier() && rd->getName() == "function";
}

// The callable a std::function argument or initializer is built from (the
// lambda, the function's name, the functor, or another std::function the
// lowering knows), under temporaries and conversions; null when it is none.
const Expr *Lowering::wrappedCallable(const Expr *e) {
  while (true) {
    e = stripCallable(e);
    if (const auto *fc = dyn_cast<CXXFunctionalCastExpr>(e)) {
      e = fc->getSubExpr();
      continue;
    }
    const auto *ce = dyn_cast<CXXConstructExpr>(e);
    if (!ce || !isStdFunction(ce->getType()) || ce->getNumArgs() != 1) break;
    e = ce->getArg(0); // std::function's converting constructor
  }
  if (isa<LambdaExpr>(e) || functorRecord(e->getType())) return e;
  if (const auto *d = dyn_cast<DeclRefExpr>(e)) {
    if (isa<FunctionDecl>(d->getDecl())) return e;
    if (const auto *v = dyn_cast<VarDecl>(d->getDecl()); v && (closures_.count(v) || functions_.count(v))) return e;
  }
  return nullptr;
}

// Binds `v`, a std::function parameter or local, to `callable` (what
// wrappedCallable found; null: none): a function in functions_, a lambda or
// functor in closures_ (its by-value captures' lets in `binds`). `what`
// names `v` in the refusal.
const CXXRecordDecl *Lowering::bindWrapped(const VarDecl *v, const Expr *callable, Env &env, Binds &binds,
                                           SourceLocation loc, const std::string &what) {
  closures_.erase(v), functions_.erase(v); // (one parameter may wrap a lambda at one call, a function at another)
  if (!callable)
    fail(loc, "this std::function " + what + " is not supported: give it a lambda, a local holding one, or a "
              "function's name (the callable must be known where the gradient is generated)");
  if (const auto *d = dyn_cast<DeclRefExpr>(callable)) {
    const auto *src = dyn_cast<VarDecl>(d->getDecl());
    if (const auto *fd = dyn_cast<FunctionDecl>(d->getDecl())) {
      functions_[v] = fd;
      return nullptr;
    }
    if (src && functions_.count(src)) {
      functions_[v] = functions_.at(src);
      return nullptr;
    }
  }
  Closure c;
  if (!closureOf(callable, env, binds, c)) fail(loc, "this std::function " + what + " is not supported");
  closures_[v] = c;
  return c.rd;
}

// A std::function parameter of an inlined helper, bound to what its argument wraps.
bool Lowering::bindStdFunctionParam(const ParmVarDecl *p, const Expr *arg, Env &env, Binds &binds,
                                    std::vector<const VarDecl *> &roots) {
  if (const CXXRecordDecl *rd = bindWrapped(p, wrappedCallable(arg), env, binds, arg->getExprLoc(), "argument"))
    noteClosureRoots(rd, env, roots);
  return true;
}

// `std::function<double(double)> g = [&](double t) { ... };`
ir::Expr Lowering::lowerStdFunctionLocal(const VarDecl *vd, Env &env, const Tail &k) {
  Binds binds;
  bindWrapped(vd, vd->getInit() ? wrappedCallable(vd->getInit()) : nullptr, env, binds, vd->getLocation(),
              "local ('" + vd->getNameAsString() + "')");
  if (closures_.count(vd)) closures_.at(vd).name = vd->getNameAsString();
  return wrap(binds, k(env));
}

// `g(args)` where g is a std::function parameter or local: the callable it
// wraps, called as an algorithm calls its callable. Null when `oc` is no
// such call.
ir::Expr Lowering::lowerStdFunctionCall(const CXXOperatorCallExpr *oc, Env &env) {
  if (oc->getOperator() != OO_Call || !isStdFunction(oc->getArg(0)->getType())) return nullptr;
  SourceLocation loc = oc->getExprLoc();
  const auto *d = dyn_cast<DeclRefExpr>(oc->getArg(0)->IgnoreParenImpCasts());
  const auto *v = d ? dyn_cast<VarDecl>(d->getDecl()) : nullptr;
  if (!v || !(closures_.count(v) || functions_.count(v)))
    fail(loc, "this call of a std::function is not supported: only a parameter or local built from a lambda or a "
              "function the gradient's code can see");
  unsigned arity = oc->getNumArgs() - 1;
  Callable c;
  callableArg(oc->getArg(0), arity, env, c);
  std::vector<CallArg> args;
  for (unsigned k = 1; k < oc->getNumArgs(); ++k) {
    CallArg a{oc->getArg(k)};
    if (!c.op) a.expr = nullptr, a.value = lowerExpr(oc->getArg(k), env); // a function: by value
    args.push_back(a);
  }
  return applyCallable(c, args, env, loc);
}

// `if (g)`, `g ? g(x) : x`: a std::function the lowering knows is built from
// a callable, so it is set (true). Null when `e` is no such conversion.
ir::Expr Lowering::stdFunctionIsSet(const Expr *e) {
  const auto *mc = dyn_cast<CXXMemberCallExpr>(e->IgnoreParenImpCasts());
  if (!mc || !isa<CXXConversionDecl>(mc->getMethodDecl()) || !isStdFunction(mc->getObjectType())) return nullptr;
  const auto *d = dyn_cast<DeclRefExpr>(mc->getImplicitObjectArgument()->IgnoreParenImpCasts());
  const auto *v = d ? dyn_cast<VarDecl>(d->getDecl()) : nullptr;
  return v && (closures_.count(v) || functions_.count(v)) ? ir::Const::makeBool(true) : nullptr;
}

} // namespace unfad::frontend
