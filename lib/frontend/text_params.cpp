// Text parameters: `const std::string& kind` (or a std::string, a
// std::string_view, a C string `const char* kind`) selecting what a function
// computes, `if (kind == "l1")`, `if (std::strcmp(kind, "l1") == 0)`.
// Text carries no derivative and the IR has no strings: such a parameter is
// a passive placeholder (an i64 nobody reads as a number), and each
// expression of numbers computed from text alone (`kind == "l1"`,
// `kind.size()`, `kind[0]`) is an ir::Opaque printed as written, the
// parameter's name at each ir::Throw::kArg mark (an argument of the
// Opaque: a helper lowered into its caller reads the caller's text). Text
// passed on to a helper is the placeholder; a literal passed there is built
// as the parameter's type (`std::string("l1")`), so that the helper's
// comparisons stay comparisons of strings (a C string's literal is the
// literal itself).
#include "lowering.h"

#include <clang/AST/PrettyPrinter.h>

#include <set>

namespace unfad::frontend {

using namespace clang;

namespace {

// "basic_string" or "basic_string_view" of char, as std names them,
// "c_string" for `const char*`; empty for anything else.
llvm::StringRef textRecord(QualType t) {
  QualType pointee = t.getNonReferenceType()->getPointeeType();
  if (!pointee.isNull() && pointee.isConstQualified() &&
      (pointee->isSpecificBuiltinType(BuiltinType::Char_S) || pointee->isSpecificBuiltinType(BuiltinType::Char_U)))
    return "c_string";
  const auto *rd = t.getNonReferenceType().getCanonicalType()->getAsCXXRecordDecl();
  const auto *spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(rd);
  if (!spec || !spec->isInStdNamespace() || !spec->getIdentifier()) return {};
  llvm::StringRef name = spec->getName();
  if (name != "basic_string" && name != "basic_string_view") return {};
  const TemplateArgumentList &args = spec->getTemplateArgs();
  if (args.size() < 1 || args[0].getKind() != TemplateArgument::Type || !args[0].getAsType()->isCharType()) return {};
  return name;
}

const VarDecl *textParamOf(const Stmt *s) {
  return textVariable(s) ? cast<VarDecl>(cast<DeclRefExpr>(s)->getDecl()) : nullptr;
}

bool readsTextLike(const Stmt *s) {
  if (!s) return false;
  if (textParamOf(s)) return true;
  for (const Stmt *c : s->children())
    if (readsTextLike(c)) return true;
  return false;
}

// What `s` reads of the function, in order: its references to text-like
// parameters, and the integers it reads of the function otherwise (an index
// `names[i]`: each outermost integer expression reading no text, lowered as
// usual). False when it reads another value of the function (a float, an
// array, `this`) or holds a lambda.
bool onlyText(const Stmt *s, std::vector<const Expr *> &holes, bool top = true) {
  if (!s) return true;
  if (isa<LambdaExpr>(s) || isa<CXXThisExpr>(s) || isa<StmtExpr>(s)) return false;
  if (const auto *e = dyn_cast<Expr>(s); e && !top && !isa<ImplicitCastExpr>(e) &&
                                         e->getType()->isIntegralOrEnumerationType() && !readsTextLike(e) && readsFunctionValues(e)) {
    holes.push_back(e);
    return true;
  }
  if (const auto *d = dyn_cast<DeclRefExpr>(s)) {
    if (textParamOf(d)) {
      holes.push_back(d);
      return true;
    }
    const auto *vd = dyn_cast<VarDecl>(d->getDecl());
    return !vd || !vd->hasLocalStorage();
  }
  for (const Stmt *c : s->children())
    if (!onlyText(c, holes, false)) return false;
  return true;
}

// A library container of text or keyed by it, or a set: `std::map<std::string,
// double>` (options), `std::vector<std::string>` (names), `std::set<int>`.
// Only read here: the parameter must be const (or by value).
bool passiveObject(QualType t) {
  if (t->isReferenceType() && !t.getNonReferenceType().isConstQualified()) return false;
  const auto *spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      t.getNonReferenceType().getCanonicalType()->getAsCXXRecordDecl());
  if (!spec || !spec->isInStdNamespace() || !spec->getIdentifier()) return false;
  static const std::set<std::string> keyed{"map", "unordered_map", "multimap", "unordered_multimap",
                                           "set", "unordered_set", "multiset", "unordered_multiset"};
  const std::string name = spec->getName().str();
  if (keyed.count(name)) return true;
  const TemplateArgumentList &args = spec->getTemplateArgs();
  return name == "vector" && args.size() >= 1 && args[0].getKind() == TemplateArgument::Type &&
         !textRecord(args[0].getAsType()).empty();
}

} // namespace

bool isText(QualType t) { return !textRecord(t).empty(); }

bool isTextLike(QualType t) { return isText(t) || passiveObject(t); }

bool textVariable(const Stmt *s) {
  const auto *d = dyn_cast_or_null<DeclRefExpr>(s);
  const auto *v = d ? dyn_cast<VarDecl>(d->getDecl()) : nullptr;
  if (!v || !v->hasLocalStorage()) return false;
  return isa<ParmVarDecl>(v) ? isTextLike(v->getType()) : isText(v->getType());
}

// A local text variable, `std::string kind = k > 0 ? "l1" : "l2";` or
// `const char* unit = "m";`, built from text and the function's integers
// and never written after: a name of its text (the Opaque that spells it),
// read wherever the variable is.
ir::Expr Lowering::lowerTextLocal(const VarDecl *vd, Env &env, const std::function<ir::Expr(Env &)> &next) {
  const Expr *init = vd->getInit();
  const auto *fn = dyn_cast_or_null<FunctionDecl>(vd->getParentFunctionOrMethod());
  if (!fn || writes(fn->getBody(), vd))
    fail(vd->getLocation(), "a local text variable written after its declaration is not supported (declare "
                            "a new one)");
  ir::Expr text;
  if (init && textVariable(init->IgnoreUnlessSpelledInSource()->IgnoreParens()))
    text = lowerDeclRef(cast<DeclRefExpr>(init->IgnoreUnlessSpelledInSource()->IgnoreParens()), env);
  else if (init)
    text = lowerTextExpr(init, env);
  if (!text || !(text->is<ir::Opaque>() || text->is<ir::Var>()))
    fail(vd->getLocation(), "a local text variable must be built from text and the function's integers (a literal, "
                            "a text parameter, `std::to_string(i)`)");
  if (text->is<ir::Var>()) { // (another name of a text variable)
    env[vd] = text;
    return next(env);
  }
  std::string n = names_.fresh(vd->getNameAsString());
  env[vd] = ir::Var::make(n, text->type);
  ir::Expr body = next(env);
  return ir::Let::make(n, text, body);
}

// `e` when it is computed from text (and the function's integers) alone: a
// number (`kind == "l1"`, `names[i] == "skip"`) as an Opaque of the text
// parameters and integers it reads; text itself (a literal given to a
// helper's text parameter) as a placeholder built from it. Null otherwise.
ir::Expr Lowering::lowerTextExpr(const Expr *e, Env &env) {
  QualType t = e->getType();
  const bool number = t->isArithmeticType() || t->isEnumeralType();
  const llvm::StringRef text = number ? llvm::StringRef() : textRecord(t);
  if (!number && text.empty()) return nullptr;
  std::vector<const Expr *> holes;
  if (!onlyText(e, holes) || (number && !readsTextLike(e))) return nullptr; // (no text: lowered as usual)
  if (!number && holes.size() == 1 && textParamOf(e->IgnoreParenImpCasts())) return nullptr; // the parameter itself
  MarkedSpelling marked;
  marked.langOpts = &ctx_.getLangOpts();
  marked.holes.insert(holes.begin(), holes.end());
  std::vector<ir::Expr> args;
  Binds pre;
  for (const Expr *h : holes) {
    if (const auto *d = dyn_cast<DeclRefExpr>(h); d && textParamOf(d)) {
      args.push_back(lowerDeclRef(d, env));
      continue;
    }
    EffectScope scope(*this, &pre);
    args.push_back(lowerExpr(h, env));
    QualType ct = h->getType().getCanonicalType().getUnqualifiedType();
    if (ct != ctx_.LongTy && ct != ctx_.BoolTy) marked.casts[h] = ct.getAsString(PrintingPolicy(ctx_.getLangOpts()));
  }
  const std::string spelled = marked.print(e);
  if (!number && text == "c_string") // (a literal as it is; text computed from text, as a C string)
    return wrap(pre, ir::Opaque::make(holes.empty() ? spelled : "static_cast<const char *>(" + spelled + ")",
                                      std::move(args), ir::Type::i64()));
  if (!number) // text for a helper: a string of its own, whatever the literal's type
    return wrap(pre, ir::Opaque::make("std::" + std::string(text == "basic_string" ? "string" : "string_view") + "(" +
                                          spelled + ")",
                                      std::move(args), ir::Type::i64()));
  return wrap(pre, ir::Opaque::make("(" + spelled + ")", std::move(args), typeOf(t.getUnqualifiedType(), e->getExprLoc())));
}

} // namespace unfad::frontend
