// `throw`: argument checks as numerical code writes them
//   if (x.size() != y.size()) throw std::invalid_argument("size mismatch");
//   return k > 0 ? x / k : throw std::domain_error("k");
//   default: throw std::logic_error("unknown model");
// A throw statement is an effect of the path it is on (ir::Throw, of unit
// type): the generated code throws the same exception at the same point,
// before any adjoint is written, and the path's derivative is never needed.
// What follows it on its path is dead and lowered as written (a function
// body whose paths all return or throw has a dead end: switch.cpp's
// alwaysReturns). The exception is rebuilt from its spelling in the
// generated code, so it may only be built from literals: the function's
// values are not in scope there. No try/catch (diagnostics.cpp).
#include "lowering.h"

namespace unfad::frontend {

using namespace clang;

namespace {

// Under the implicit conversions, temporaries and constructors (a literal
// converted to the std::string parameter).
const Expr *bare(const Expr *e) { return e ? e->IgnoreUnlessSpelledInSource()->IgnoreParens() : nullptr; }

bool isLiteral(const Expr *e) {
  e = bare(e);
  if (const auto *u = dyn_cast<UnaryOperator>(e); u && (u->getOpcode() == UO_Minus || u->getOpcode() == UO_Plus))
    e = bare(u->getSubExpr());
  return isa<StringLiteral>(e) || isa<IntegerLiteral>(e) || isa<FloatingLiteral>(e) || isa<CXXBoolLiteralExpr>(e) ||
         isa<CharacterLiteral>(e);
}

} // namespace

// `throw X` as a statement, or the arm of a `?:`.
const CXXThrowExpr *thrownBy(const Expr *e) { return dyn_cast_or_null<CXXThrowExpr>(bare(e)); }

// The C++ spelling of the thrown exception: a literal, or an object of a
// class built from literals (`std::invalid_argument("...")`, `Error{}`).
std::string Lowering::thrownSpelling(const CXXThrowExpr *te) {
  SourceLocation loc = te->getThrowLoc();
  const Expr *x = te->getSubExpr() ? te->getSubExpr()->IgnoreImplicit()->IgnoreParens() : nullptr;
  if (const auto *fc = dyn_cast_or_null<CXXFunctionalCastExpr>(x)) x = fc->getSubExpr()->IgnoreImplicit();
  if (!x) fail(loc, "rethrowing ('throw;') is not supported: there is no 'try' in a differentiated function");
  PrintingPolicy pp(ctx_.getLangOpts());
  auto literal = [&](const Expr *a) {
    std::string s;
    llvm::raw_string_ostream os(s);
    bare(a)->printPretty(os, nullptr, pp);
    return os.str();
  };
  auto refuse = [&](const Expr *at) {
    fail(at->getExprLoc(), "the exception thrown here must be built from literals (such as "
                           "std::invalid_argument(\"...\")): the generated gradient rebuilds it where the "
                           "function's values are not in scope");
  };
  if (isLiteral(x)) return literal(x);
  std::vector<const Expr *> args;
  if (const auto *c = dyn_cast<CXXConstructExpr>(x))
    for (const Expr *a : c->arguments()) args.push_back(a);
  else if (const auto *il = dyn_cast<InitListExpr>(x))
    for (const Expr *a : il->inits()) args.push_back(a);
  else if (!isa<CXXScalarValueInitExpr>(x))
    refuse(x);
  std::string s = qualTypeStr(x->getType().getUnqualifiedType()) + "(";
  for (size_t k = 0; k < args.size(); ++k) {
    if (isa<CXXDefaultArgExpr>(args[k])) break;
    if (!isLiteral(args[k])) refuse(args[k]);
    s += (k ? ", " : "") + literal(args[k]);
  }
  return s + ")";
}

// `throw X;`: the throw, then (dead) what follows on its path.
ir::Expr Lowering::lowerThrowStmt(const CXXThrowExpr *te, const Seq *rest, Env &env, const Tail &tail) {
  ir::Expr thrown = ir::Throw::make(thrownSpelling(te), ir::Type::unit());
  return effect(thrown, [&] { return lowerSeq(rest, env, tail); });
}

// `c ? x : throw E` (or `c ? throw E : x`): the check, as an effect before
// the expression's statement, then the other arm.
ir::Expr Lowering::lowerThrowingChoice(const ConditionalOperator *c, Env &env) {
  const CXXThrowExpr *te = thrownBy(c->getTrueExpr());
  bool whenTrue = te != nullptr;
  if (!te) te = thrownBy(c->getFalseExpr());
  SourceLocation loc = te->getThrowLoc();
  if (!effects_)
    fail(loc, "a 'throw' inside " + (noEffectsWhere_.empty() ? std::string("this expression") : noEffectsWhere_) +
                  " is not supported (check before it, in a statement)");
  ir::Expr cond = toBool(lowerExpr(c->getCond(), env));
  ir::Expr thrown = ir::Throw::make(thrownSpelling(te), ir::Type::unit()), none = ir::Tuple::make({});
  effects_->push_back({names_.fresh("_"), ir::If::make(cond, whenTrue ? thrown : none, whenTrue ? none : thrown)});
  const Expr *other = whenTrue ? c->getFalseExpr() : c->getTrueExpr();
  if (thrownBy(other)) fail(other->getExprLoc(), "both arms of this '?:' throw (write a 'throw' statement)");
  return convert(lowerExpr(other, env), typeOf(c->getType(), c->getExprLoc()));
}

} // namespace unfad::frontend
