// Passive calls: a call whose arguments cannot depend on the differentiated
// values (`std::lgamma(0.5 * (n + 1))` with an int n) is a constant of the
// differentiation. It needs neither a body nor a derivative: it becomes an
// ir::Opaque, printed as the same call, once. With an argument that may
// depend on them, a function without a derivative stays an error there.
#include "lowering.h"

#include <clang/AST/DeclCXX.h>
#include <clang/Basic/Builtins.h>

namespace unfad::frontend {

using namespace clang;

namespace {

// Whether a value of type `t` can carry a derivative: a floating-point
// scalar, or something holding or pointing to one.
bool mayCarryFloat(QualType t, int depth = 0) {
  if (depth > 8) return true;
  t = t.getNonReferenceType().getCanonicalType();
  if (t->isFloatingType()) return true;
  if (t->isIntegralOrEnumerationType() || t->isBooleanType() || t->isNullPtrType()) return false;
  if (const auto *p = t->getAs<PointerType>()) return mayCarryFloat(p->getPointeeType(), depth + 1);
  if (const auto *a = dyn_cast<ArrayType>(t.getTypePtr())) return mayCarryFloat(a->getElementType(), depth + 1);
  if (const auto *rd = t->getAsRecordDecl()) {
    if (const auto *cx = dyn_cast<CXXRecordDecl>(rd); cx && cx->hasDefinition())
      for (const CXXBaseSpecifier &b : cx->bases())
        if (mayCarryFloat(b.getType(), depth + 1)) return true;
    for (const FieldDecl *f : rd->fields())
      if (mayCarryFloat(f->getType(), depth + 1)) return true;
    return false;
  }
  return true; // anything else: assume it may
}

// The function's name as the call spells it: `std::lgamma`, `lgamma`,
// `::lgamma`; functions outside std and the global namespace fully qualified
// (the gradient may be printed in another namespace).
std::string spelledCallee(const CallExpr *ce, const FunctionDecl *fd, const std::string &qualified) {
  const DeclContext *dc = fd->getDeclContext()->getRedeclContext();
  while (dc && (dc->isInlineNamespace() || isa<LinkageSpecDecl>(dc))) dc = dc->getParent()->getRedeclContext();
  bool inStd = dc && dc->isStdNamespace();
  // a standard function as written (overload resolution picks the same one);
  // the user's own templates with their arguments
  if (!inStd && (!dc || !dc->isTranslationUnit() || fd->getTemplateSpecializationArgs())) return "::" + qualified;
  std::string q;
  if (const auto *d = dyn_cast<DeclRefExpr>(ce->getCallee()->IgnoreParenImpCasts()); d && d->getQualifier()) {
    llvm::raw_string_ostream os(q);
    d->getQualifier()->print(os, PrintingPolicy(LangOptions()));
  }
  return q + fd->getNameAsString();
}

} // namespace

// The value of `e` cannot depend on the differentiated values: it reads
// only integers, booleans, enums, constants, and const locals initialised
// from such values (conservative: a non-const floating-point local may).
bool Lowering::passiveExpr(const Expr *e, int depth) {
  if (!e || depth > 16) return false;
  e = e->IgnoreParens();
  if (const auto *d = dyn_cast<DeclRefExpr>(e)) {
    const auto *vd = dyn_cast<VarDecl>(d->getDecl());
    if (!vd) return true; // functions, enumerators
    if (!mayCarryFloat(vd->getType())) return true;
    if (!vd->hasLocalStorage()) return true; // globals are never differentiated
    if (isa<ParmVarDecl>(vd) || vd->getType()->isReferenceType()) return false;
    return vd->getType().isConstQualified() && vd->getInit() && passiveExpr(vd->getInit(), depth + 1);
  }
  if (isa<LambdaExpr>(e) || isa<CXXThisExpr>(e) || isa<StmtExpr>(e)) return false;
  for (const Stmt *c : e->children()) {
    const auto *ce = dyn_cast_or_null<Expr>(c);
    if (c && (!ce || !passiveExpr(ce, depth + 1))) return false;
  }
  return true;
}

// A call unfad does not lower: of a function without a visible body, of a
// standard-library function that is no math operator, of a helper whose
// body holds a construct unfad refuses, or of a helper of values on passive
// values. All arguments passive and a scalar
// result: an Opaque. Null when the call is none of these (lowered as a
// helper); an error when an argument may carry a derivative.
ir::Expr Lowering::lowerPassiveCall(const CallExpr *ce, const FunctionDecl *fd, Env &env) {
  SourceLocation loc = ce->getExprLoc();
  if (fd->isVariadic()) return nullptr; // refused as such
  const FunctionDecl *def = fd->getDefinition();
  bool system = sm_.isInSystemHeader(sm_.getExpansionLoc(fd->getLocation()));
  bool noBody = !def || !def->hasBody() || isa<CXXTryStmt>(def->getBody());
  bool refused = !noBody && !system && bodyRefused(def);
  QualType rt = ce->getType();
  bool scalarResult = rt->isArithmeticType() || rt->isEnumeralType();
  bool passiveArgs = true;
  for (const Expr *a : ce->arguments()) {
    QualType at = a->getType();
    passiveArgs = passiveArgs && !at->isPointerType() && !at->isArrayType() && !at->isRecordType() && passiveExpr(a);
  }
  // A helper of the user's taking only values (no references: it cannot
  // write the caller's variables) called on passive values is a constant
  // too (`log_gamma_distrib(0.5 * n, d)` with int n, d): its body needs no
  // derivative, even where it computes on doubles.
  bool byValue = true;
  for (const ParmVarDecl *p : fd->parameters()) byValue = byValue && !p->getType()->isReferenceType();
  if (!noBody && !system && !refused && !(scalarResult && passiveArgs && byValue)) return nullptr;
  std::string fname = fd->getNameAsString();
  // A library predicate or integer-valued function of numbers (std::isnan,
  // std::isfinite, std::signbit, std::lround) taken by value: its result
  // carries no derivative, whatever its arguments carry.
  bool numbersByValue = byValue && !isa<CXXMethodDecl>(fd) && ce->getNumArgs() > 0;
  for (const Expr *a : ce->arguments()) numbersByValue = numbersByValue && a->getType()->isArithmeticType();
  if (system && numbersByValue && !mayCarryFloat(rt)) {
    std::vector<ir::Expr> args;
    for (unsigned i = 0; i < ce->getNumArgs(); ++i) args.push_back(lowerExpr(ce->getArg(i), env));
    return ir::Opaque::make(spelledCallee(ce, fd, qualifiedPath(fd)), std::move(args), typeOf(rt.getUnqualifiedType(), loc));
  }
  if (!scalarResult || !passiveArgs) {
    if (noBody) {
      if (ir::Expr k = tryConstant(ce)) return k;
      if (system && scalarResult)
        fail(loc, "'" + fname + "' has no derivative in unfad, and its argument may depend on the differentiated "
                               "values (only calls on passive values, such as integers, are supported; give it a derivative with UNFAD_CUSTOM_GRADIENT, or differentiate it numerically with --numerical-fallback)");
      fail(loc, "call to '" + fname + "' whose body is not visible (give it a derivative with UNFAD_CUSTOM_GRADIENT, or differentiate it numerically with --numerical-fallback)");
    }
    return nullptr; // lowered (a helper), or refused inside it
  }
  if (ir::Expr k = tryConstant(ce)) return k;
  std::vector<ir::Expr> args;
  for (unsigned i = 0; i < ce->getNumArgs(); ++i) {
    ir::Expr a = lowerExpr(ce->getArg(i), env);
    if (!a->type->isScalar()) fail(ce->getArg(i)->getExprLoc(), "argument of '" + fname + "' is not a scalar");
    args.push_back(a);
  }
  ir::TypeP t = typeOf(rt.getUnqualifiedType(), loc);
  return ir::Opaque::make(spelledCallee(ce, fd, qualifiedPath(fd)), std::move(args), t);
}

} // namespace unfad::frontend
