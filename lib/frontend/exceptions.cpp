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
// generated code, where the function's numbers it reads (`"index " +
// std::to_string(k)`) are the Throw's arguments; it may read no other value
// of the function (an array, a string variable). No try/catch
// (diagnostics.cpp).
#include "lowering.h"

#include <clang/AST/PrettyPrinter.h>

#include <functional>
#include <map>
#include <set>

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

// Whether `s` reads a value of the function: a local variable or a
// parameter (of it or of a helper lowered into it), or `this`.
bool readsFunctionValues(const Stmt *s) {
  if (!s) return false;
  if (const auto *d = dyn_cast<DeclRefExpr>(s))
    if (const auto *vd = dyn_cast<VarDecl>(d->getDecl()); vd && vd->hasLocalStorage()) return true;
  if (isa<CXXThisExpr>(s)) return true;
  for (const Stmt *c : s->children())
    if (readsFunctionValues(c)) return true;
  return false;
}

namespace {

// Prints an expression with each of `holes` as a Throw::kArg mark (cast
// back to its C++ type where the IR's differs: an `int` is a `long`).
struct MarkHoles : PrinterHelper {
  const std::set<const Stmt *> *holes;
  const std::map<const Stmt *, std::string> *casts;
  const std::map<const Stmt *, std::string> *verbatim;
  bool handledStmt(Stmt *st, raw_ostream &os) override {
    if (auto v = verbatim->find(st); v != verbatim->end()) {
      os << v->second;
      return true;
    }
    if (!holes->count(st)) return false;
    auto c = casts->find(st);
    if (c == casts->end()) os << ir::Throw::kArg;
    else os << "static_cast<" << c->second << ">(" << ir::Throw::kArg << ")";
    return true;
  }
};

} // namespace

std::string MarkedSpelling::print(const Expr *e) const {
  MarkHoles marks;
  marks.holes = &holes;
  marks.casts = &casts;
  marks.verbatim = &verbatim;
  PrintingPolicy pp(*langOpts);
  pp.SuppressImplicitBase = true;
  std::string s;
  llvm::raw_string_ostream os(s);
  bare(e)->printPretty(os, &marks, pp);
  return os.str();
}

// The numbers of the function `x` reads: each outermost arithmetic
// expression that reads one (`k`, `x.size()`, `i + 1`), and the text
// parameters it names, lowered in order (their effects into `pre`).
// `what` names the statement in errors ("the exception thrown here"). A
// statement (`printf(...)`, which returns an int) is no number itself.
MarkedSpelling Lowering::markNumbers(const Expr *x, Env &env, Binds &pre, const std::string &what, bool statement) {
  MarkedSpelling m;
  m.langOpts = &ctx_.getLangOpts();
  PrintingPolicy pp(ctx_.getLangOpts());
  std::vector<const Expr *> order;
  std::function<void(const Stmt *)> find = [&](const Stmt *st) {
    if (!st || isa<LambdaExpr>(st)) return;
    if (const auto *e = dyn_cast<Expr>(st); e && !(statement && e == x) && !isa<ImplicitCastExpr>(e) && readsFunctionValues(e) &&
                                            (e->getType()->isArithmeticType() || e->getType()->isEnumeralType())) {
      m.holes.insert(e);
      order.push_back(e);
      return;
    }
    if (const auto *d = dyn_cast<DeclRefExpr>(st); d && (textVariable(d) || passiveAlias(d))) {
      m.holes.insert(d); // a text parameter: "unknown kind: " + kind (text_params.cpp), or a name of passive data
      order.push_back(d);
      return;
    }
    if (const auto *d = dyn_cast<DeclRefExpr>(st); d && readsFunctionValues(d))
      fail(d->getLocation(), what + " may only read numbers of the function ('" + d->getDecl()->getNameAsString() +
                                 "' is not one): the generated gradient rebuilds it from them");
    for (const Stmt *c : st->children()) find(c);
  };
  find(x);
  for (const Expr *h : order) {
    if (const PassiveAlias *alias = passiveAlias(h)) { // spelled as what it names (passive_data.cpp)
      m.verbatim[h] = grouped(alias->spelling);
      m.args.insert(m.args.end(), alias->args.begin(), alias->args.end());
      continue;
    }
    ir::Expr v;
    {
      EffectScope scope(*this, &pre);
      v = lowerExpr(h, env);
    }
    if (!v->type->isScalar()) fail(h->getExprLoc(), what + " reads a value that is not a number");
    QualType ct = h->getType().getCanonicalType().getUnqualifiedType();
    // (a parameter of the marked function keeps its C++ type in f_grad)
    const auto *d = dyn_cast<DeclRefExpr>(h->IgnoreParenImpCasts());
    bool own = d && isa<ParmVarDecl>(d->getDecl()) && d->getDecl()->getDeclContext() == currentRoot_ && !inline_ &&
               v->is<ir::Var>();
    bool same = own || textVariable(h) || ct == ctx_.DoubleTy || ct == ctx_.FloatTy || ct == ctx_.BoolTy || ct == ctx_.LongTy;
    // (the builtin type itself: `std::vector<T>::size_type` may not print back as written)
    if (!same) m.casts[h] = ct->isBuiltinType() ? ct.getAsString(pp) : qualTypeStr(h->getType().getUnqualifiedType());
    m.args.push_back(v);
  }
  return m;
}

// The thrown exception: its C++ spelling, rebuilt where the function's
// values are the generated code's (a literal, `std::invalid_argument("...")`,
// `MyError{}`, or a message built from the function's numbers: `"index " +
// std::to_string(k)`). Each number it reads is an argument of the Throw
// (lowered here, its effects into `pre`), printed in its place.
ir::Expr Lowering::lowerThrown(const CXXThrowExpr *te, Env &env, Binds &pre) {
  SourceLocation loc = te->getThrowLoc();
  const Expr *x = te->getSubExpr() ? te->getSubExpr()->IgnoreImplicit()->IgnoreParens() : nullptr;
  if (const auto *fc = dyn_cast_or_null<CXXFunctionalCastExpr>(x)) x = fc->getSubExpr()->IgnoreImplicit();
  if (!x) fail(loc, "rethrowing ('throw;') is not supported: there is no 'try' in a differentiated function");
  MarkedSpelling m = markNumbers(x, env, pre, "the exception thrown here");
  if (isLiteral(x) || m.holes.count(x)) return ir::Throw::make(m.print(x), ir::Type::unit(), std::move(m.args)); // throw k;
  std::vector<const Expr *> ctorArgs;
  if (const auto *c = dyn_cast<CXXConstructExpr>(x))
    for (const Expr *a : c->arguments()) ctorArgs.push_back(a);
  else if (const auto *il = dyn_cast<InitListExpr>(x))
    for (const Expr *a : il->inits()) ctorArgs.push_back(a);
  else if (!isa<CXXScalarValueInitExpr>(x))
    fail(x->getExprLoc(), "the exception thrown here must be an object built by a constructor (such as "
                          "std::invalid_argument(\"...\")) or a literal");
  std::string spelling = qualTypeStr(x->getType().getUnqualifiedType()) + "(";
  for (size_t k = 0; k < ctorArgs.size(); ++k) {
    if (isa<CXXDefaultArgExpr>(ctorArgs[k])) break;
    spelling += (k ? ", " : "") + m.print(ctorArgs[k]);
  }
  return ir::Throw::make(spelling + ")", ir::Type::unit(), std::move(m.args));
}

// `throw X;`: the throw, then (dead) what follows on its path.
ir::Expr Lowering::lowerThrowStmt(const CXXThrowExpr *te, const Seq *rest, Env &env, const Tail &tail) {
  Binds pre;
  ir::Expr thrown = lowerThrown(te, env, pre);
  return wrap(pre, effect(thrown, [&] { return lowerSeq(rest, env, tail); }));
}

// A throw inside an expression (`what`) becomes a check before its
// statement: refused, with `hint`, where no statement can go first (a loop
// condition, an operand of ?: or &&).
void Lowering::needCheckBefore(SourceLocation loc, const std::string &what, const std::string &hint) {
  if (!effects_)
    fail(loc, what + " inside " + (noEffectsWhere_.empty() ? std::string("this expression") : noEffectsWhere_) +
                  " is not supported (" + hint + ")");
}

// `if (cond == throwWhen) throw ...;` before the statement being lowered.
void Lowering::checkBefore(const ir::Expr &cond, bool throwWhen, const ir::Expr &thrown) {
  const ir::Expr none = ir::Tuple::make({});
  effects_->push_back({names_.fresh("_"), ir::If::make(cond, throwWhen ? thrown : none, throwWhen ? none : thrown)});
}

// `c ? x : throw E` (or `c ? throw E : x`): the check, as an effect before
// the expression's statement, then the other arm.
ir::Expr Lowering::lowerThrowingChoice(const ConditionalOperator *c, Env &env) {
  const CXXThrowExpr *te = thrownBy(c->getTrueExpr());
  bool whenTrue = te != nullptr;
  if (!te) te = thrownBy(c->getFalseExpr());
  needCheckBefore(te->getThrowLoc(), "a 'throw'", "check before it, in a statement");
  ir::Expr cond = toBool(lowerExpr(c->getCond(), env));
  Binds pre;
  checkBefore(cond, whenTrue, wrap(pre, lowerThrown(te, env, pre)));
  const Expr *other = whenTrue ? c->getFalseExpr() : c->getTrueExpr();
  if (thrownBy(other)) fail(other->getExprLoc(), "both arms of this '?:' throw (write a 'throw' statement)");
  return convert(lowerExpr(other, env), typeOf(c->getType(), c->getExprLoc()));
}

} // namespace unfad::frontend
