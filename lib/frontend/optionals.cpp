// std::optional of a number, as code that may fail returns it:
//
//   std::optional<double> safe_log(double x) {
//     if (x <= 0) return std::nullopt;
//     return std::log(x);
//   }
//   ... if (auto l = safe_log(v)) s += *l; else s += v * v;
//
// An optional is an IR struct of a flag and a value, which the generated
// code holds as an `unfad::optional_value<T>{has, value}` (<unfad/unfad.h>,
// a plain aggregate: reading the value of an empty std::optional would be
// undefined behaviour). Its library internals are never lowered; lowered
// here: its constructors (empty, std::nullopt, a value, another optional),
// std::make_optional, assignment (`o = v;`, `o = std::nullopt;`, `o =
// other;`, `o.reset();`, `o.emplace(v);`), `has_value()` and the test `if
// (o)` / `!o`, `*o`, `value()` (which throws std::bad_optional_access on an
// empty optional: a check before the statement, an ir::Throw, so f_grad
// throws where f throws), `value_or(d)`, and comparisons with std::nullopt.
// An empty optional's value is 0, never read as the optional's value (`*o`
// of an empty optional is undefined behaviour in C++). The value carries
// the derivative; the flag is passive. Helpers taking or returning optionals
// are lowered into their callers, so no optional crosses a generated
// function's signature; a marked function may not take one (diagnosed), nor
// return one (its result must be floating-point).
#include "lowering.h"

#include <clang/AST/DeclTemplate.h>

namespace unfad::frontend {

using namespace clang;

namespace {

const ClassTemplateSpecializationDecl *optionalSpec(QualType t) {
  const auto *sd =
      dyn_cast_or_null<ClassTemplateSpecializationDecl>(t.getNonReferenceType().getCanonicalType()->getAsRecordDecl());
  if (!sd || !sd->isInStdNamespace() || !sd->getIdentifier() || sd->getName() != "optional") return nullptr;
  const TemplateArgumentList &args = sd->getTemplateArgs();
  return args.size() == 1 && args[0].getKind() == TemplateArgument::Type ? sd : nullptr;
}

const FunctionDecl *stdNamed(const CallExpr *ce, llvm::StringRef name) {
  const FunctionDecl *fd = ce->getDirectCallee();
  return fd && fd->getIdentifier() && fd->getName() == name && fd->isInStdNamespace() ? fd : nullptr;
}

} // namespace

bool optionalType(QualType t) { return optionalSpec(t) != nullptr; }

bool nulloptType(QualType t) {
  const auto *rd = t.getNonReferenceType().getCanonicalType()->getAsRecordDecl();
  return rd && rd->getIdentifier() && rd->getName() == "nullopt_t" && rd->isInStdNamespace();
}

bool optionalReset(const CXXMemberCallExpr *mc) {
  const CXXMethodDecl *m = mc->getMethodDecl();
  if (!m || !m->getIdentifier() || !optionalType(mc->getObjectType())) return false;
  return (m->getName() == "reset" && mc->getNumArgs() == 0) ||
         (m->getName() == "emplace" && mc->getNumArgs() == 1 && mc->getArg(0)->getType()->isArithmeticType());
}

bool optionalAssign(const CXXOperatorCallExpr *oc) {
  return oc->getOperator() == OO_Equal && oc->getNumArgs() == 2 && optionalType(oc->getArg(0)->getType());
}

ir::TypeP Lowering::optionalIRType(QualType qt, SourceLocation loc) {
  const RecordDecl *rd = qt.getCanonicalType()->getAsRecordDecl();
  QualType value = optionalSpec(qt)->getTemplateArgs()[0].getAsType();
  if (!value->isArithmeticType() || value->isAnyComplexType())
    fail(loc, "'" + typeStr(qt.getUnqualifiedType()) + "' is not supported (std::optional of a number is)");
  auto t = ir::Type::structure("unfad::optional_value<" + typeStr(value.getCanonicalType().getUnqualifiedType()) + ">",
                               {"has", "value"}, {ir::Type::boolean(), typeOf(value, loc)});
  structs_[rd] = t;
  return t;
}

ir::Expr Lowering::emptyOptional(const ir::TypeP &t) {
  return ir::Tuple::makeStruct(t, {ir::Const::makeBool(false), ir::Const::zero(t->elems[1])});
}

ir::Expr Lowering::filledOptional(const ir::Expr &v, const ir::TypeP &t) {
  return ir::Tuple::makeStruct(t, {ir::Const::makeBool(true), convert(v, t->elems[1])});
}

ir::Expr Lowering::lowerOptionalConstruct(const CXXConstructExpr *c, Env &env) {
  SourceLocation loc = c->getExprLoc();
  ir::TypeP t = typeOf(c->getType(), loc);
  if (c->getNumArgs() == 0) return emptyOptional(t);
  const Expr *a = c->getArg(0);
  if (c->getNumArgs() == 1 && nulloptType(a->getType())) return emptyOptional(t);
  if (c->getNumArgs() == 1 && optionalType(a->getType())) return convert(lowerExpr(a, env), t);
  if (c->getNumArgs() == 1 && a->getType()->isArithmeticType()) return filledOptional(lowerExpr(a, env), t);
  fail(loc, "this constructor of '" + typeStr(c->getType()) + "' is not supported");
}

ir::Expr Lowering::lowerOptionalCall(const CallExpr *ce, Env &env) {
  SourceLocation loc = ce->getExprLoc();
  if (stdNamed(ce, "make_optional") && ce->getNumArgs() == 1 && optionalType(ce->getType()))
    return filledOptional(lowerExpr(ce->getArg(0), env), typeOf(ce->getType(), loc));
  const Expr *object = nullptr;
  llvm::StringRef name;
  std::vector<const Expr *> args;
  if (const auto *mc = dyn_cast<CXXMemberCallExpr>(ce); mc && optionalType(mc->getObjectType())) {
    object = mc->getImplicitObjectArgument();
    const CXXMethodDecl *m = mc->getMethodDecl();
    name = isa<CXXConversionDecl>(m) ? "operator bool" : m->getIdentifier() ? m->getName() : "";
    args.assign(mc->arg_begin(), mc->arg_end());
  } else if (const auto *oc = dyn_cast<CXXOperatorCallExpr>(ce); oc && oc->getNumArgs() >= 1) {
    const bool left = optionalType(oc->getArg(0)->getType());
    const bool right = oc->getNumArgs() == 2 && optionalType(oc->getArg(1)->getType());
    if (!left && !right) return nullptr;
    if (oc->getOperator() == OO_Star && oc->getNumArgs() == 1) {
      object = oc->getArg(0);
      name = "operator*";
    } else if ((oc->getOperator() == OO_EqualEqual || oc->getOperator() == OO_ExclaimEqual) && oc->getNumArgs() == 2 &&
               (nulloptType(oc->getArg(0)->getType()) || nulloptType(oc->getArg(1)->getType()))) {
      object = oc->getArg(left ? 0 : 1);
      name = oc->getOperator() == OO_EqualEqual ? "== nullopt" : "!= nullopt";
    } else if (oc->getOperator() == OO_Equal) {
      return nullptr; // (an assignment: lowerAssignment)
    } else {
      fail(loc, "operator '" + std::string(getOperatorSpelling(oc->getOperator())) + "' on std::optional is not "
                "supported (compare the values, `*a < *b`, after testing them)");
    }
  } else {
    return nullptr;
  }
  Binds binds;
  const ir::Expr o = shareValue(lowerExpr(object, env), "opt", binds);
  const ir::Expr has = ir::Proj::make(o, 0), value = ir::Proj::make(o, 1);
  ir::Expr out;
  if (name == "has_value" || name == "operator bool" || name == "!= nullopt") out = has;
  else if (name == "== nullopt") out = ir::Prim::make(ir::Op::Not, {has});
  else if (name == "operator*") out = value;
  else if (name == "value") { // a check before the statement, as a `?:` with a throwing arm is (exceptions.cpp)
    needCheckBefore(loc, "'value()' of std::optional", "it may throw: test has_value() first and read *o");
    effects_->insert(effects_->end(), binds.begin(), binds.end());
    binds.clear();
    checkBefore(has, false, ir::Throw::make("std::bad_optional_access()", ir::Type::unit()));
    out = value;
  } else if (name == "value_or" && args.size() == 1)
    out = ir::If::make(has, value, convert(lowerExpr(args[0], env), value->type));
  else
    fail(loc, "'" + name.str() + "' of std::optional is not supported here (has_value, value, value_or, *, "
                                 "comparisons with std::nullopt, assignment, and reset() and emplace(v) as statements are)");
  return wrap(binds, out);
}

} // namespace unfad::frontend
