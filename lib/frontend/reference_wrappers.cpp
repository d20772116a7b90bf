// std::reference_wrapper, std::ref and std::cref: a reference that can be
// passed by value (`apply(std::ref(acc), v)` into `template <class T> void
// apply(T t, ...)`, a lambda's `auto r` parameter), kept in a local
// (`std::reference_wrapper<double> w = acc;`, `auto c = std::cref(b);`) and
// read through `.get()` or its conversion to `T&`.
//
// A wrapper is lowered as the reference it holds (references.cpp): a local
// of a wrapper type is a reference local, a parameter of one a reference
// parameter (so its helper is lowered into its caller), and `std::ref(x)`,
// `w.get()` and `(T&)w` designate what `x` and `w` do. No wrapper object is
// left in the generated code. Refused at the construct: rebinding a
// wrapper (`w = std::ref(y)`), wrappers in containers and as members.
#include "lowering.h"

#include <clang/AST/DeclCXX.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/ExprCXX.h>

namespace unfad::frontend {

using namespace clang;

// `std::reference_wrapper<T>` (cv-qualified or by reference too).
bool isReferenceWrapper(QualType t) {
  const auto *s = dyn_cast_or_null<ClassTemplateSpecializationDecl>(t.getNonReferenceType()->getAsCXXRecordDecl());
  return s && s->getName() == "reference_wrapper" && s->isInStdNamespace();
}

namespace {

const Expr *peel(const Expr *e) {
  while (true) {
    e = stripNoOps(e);
    if (const auto *m = dyn_cast<MaterializeTemporaryExpr>(e)) e = m->getSubExpr();
    else if (const auto *b = dyn_cast<CXXBindTemporaryExpr>(e)) e = b->getSubExpr();
    else if (const auto *c = dyn_cast<ImplicitCastExpr>(e); c && c->getCastKind() == CK_ConstructorConversion) e = c->getSubExpr();
    else if (const auto *f = dyn_cast<CXXFunctionalCastExpr>(e); f && f->getCastKind() == CK_ConstructorConversion) e = f->getSubExpr();
    else if (const auto *c = dyn_cast<ConstantExpr>(e)) e = c->getSubExpr();
    else return e;
  }
}

} // namespace

// What `e` designates when it makes or opens a wrapper: `std::ref(x)`,
// `std::cref(x)`, `std::reference_wrapper<T>(x)` -> x; `w.get()`, `(T&)w`
// -> w (a wrapper variable, bound like a reference); null otherwise.
const Expr *Lowering::unwrapReference(const Expr *e) {
  const Expr *x = peel(e);
  auto inner = [&](const Expr *arg) -> const Expr * {
    if (isReferenceWrapper(arg->getType()))
      if (const Expr *u = unwrapReference(arg)) return u;
    return peel(arg);
  };
  if (const auto *c = dyn_cast<CallExpr>(x); c && !isa<CXXMemberCallExpr>(c) && !isa<CXXOperatorCallExpr>(c)) {
    const FunctionDecl *fd = c->getDirectCallee();
    if (fd && fd->isInStdNamespace() && fd->getIdentifier() && (fd->getName() == "ref" || fd->getName() == "cref") &&
        c->getNumArgs() == 1 && isReferenceWrapper(c->getType()))
      return inner(c->getArg(0));
    return nullptr;
  }
  if (const auto *c = dyn_cast<CXXConstructExpr>(x); c && c->getNumArgs() == 1 && isReferenceWrapper(c->getType()))
    return inner(c->getArg(0));
  if (const auto *c = dyn_cast<ImplicitCastExpr>(x); c && c->getCastKind() == CK_UserDefinedConversion) x = peel(c->getSubExpr());
  if (const auto *mc = dyn_cast<CXXMemberCallExpr>(x)) {
    const CXXMethodDecl *m = mc->getMethodDecl();
    const Expr *obj = mc->getImplicitObjectArgument();
    if (m && obj && isReferenceWrapper(obj->getType()) && mc->getNumArgs() == 0 &&
        (isa<CXXConversionDecl>(m) || (m->getIdentifier() && m->getName() == "get"))) {
      const Expr *o = peel(obj);
      if (isa<DeclRefExpr>(o)) return o;
      return inner(o);
    }
  }
  return nullptr;
}

// `std::reference_wrapper<double> w = acc;`, `auto w = std::ref(acc);`: a
// reference local (or, for an array, the array's other name).
ir::Expr Lowering::lowerWrapperLocal(const VarDecl *vd, Env &env, const Tail &k) {
  const Expr *init = vd->getInit() ? unwrapReference(vd->getInit()) : nullptr;
  SourceLocation loc = vd->getLocation();
  if (!init) fail(loc, "this std::reference_wrapper is not supported ('" + vd->getNameAsString() +
                           "'; initialise it with a variable, std::ref or std::cref)");
  if (ArrayInfo ai; arrayInfo(init->getType(), ai, loc)) {
    env[vd] = lowerArrayRef(init, env);
    return k(env);
  }
  Binds binds;
  RefTarget t;
  if (!lvalueTarget(init, env, t, binds))
    fail(init->getExprLoc(), "this std::reference_wrapper is not supported ('" + vd->getNameAsString() +
                                 "'; only wrappers of local variables, of array elements and of their fields are)");
  refs_[vd] = t;
  return wrap(binds, k(env));
}

} // namespace unfad::frontend
