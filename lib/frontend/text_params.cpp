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

#include <cctype>
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

using Aliases = std::map<const VarDecl *, PassiveAlias>;

} // namespace

std::string grouped(const std::string &s) {
  int depth = 0;
  for (size_t k = 0; k < s.size(); ++k) {
    char c = s[k];
    if (c == '(' || c == '[') ++depth;
    else if (c == ')' || c == ']') --depth;
    else if (c == '"') return "(" + s + ")";
    else if (depth == 0 && !std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '.' && c != ':' &&
             c != ir::Throw::kArg && !(c == '-' && k + 1 < s.size() && s[k + 1] == '>') &&
             !(c == '>' && k > 0 && s[k - 1] == '-'))
      return "(" + s + ")";
  }
  return s;
}

namespace {

// Whether evaluating `s` only reads: members, elements, built-in arithmetic,
// the standard containers' element and size accessors, and accessors whose
// whole body is `return <a read>;` (`LightMatrix::operator()`). Such an
// expression of passive data costs about a load to evaluate again; any
// other call (`std::lgamma(d.n)`, a lookup in a map) computes.
bool onlyReads(const Stmt *s, int depth = 0) {
  if (!s) return true;
  if (isa<LambdaExpr>(s) || isa<CXXNewExpr>(s) || isa<CXXDeleteExpr>(s) || isa<StmtExpr>(s)) return false;
  if (const auto *b = dyn_cast<BinaryOperator>(s); b && b->isAssignmentOp()) return false;
  if (const auto *u = dyn_cast<UnaryOperator>(s); u && u->isIncrementDecrementOp()) return false;
  if (const auto *c = dyn_cast<CXXConstructExpr>(s); c && !c->getConstructor()->isTrivial()) return false;
  if (const auto *call = dyn_cast<CallExpr>(s)) {
    const auto *fd = call->getDirectCallee();
    if (!fd) return false;
    static const std::set<std::string> accessors{"operator[]", "at", "size", "front", "back", "data", "empty"};
    const auto *md = dyn_cast<CXXMethodDecl>(fd);
    const bool stdAccessor = md && md->getParent()->isInStdNamespace() && accessors.count(fd->getNameAsString());
    if (!stdAccessor) {
      const Expr *value = singleReturnValue(fd);
      if (!value || depth > 3 || !onlyReads(value, depth + 1)) return false;
    }
  }
  for (const Stmt *c : s->children())
    if (!onlyReads(c, depth)) return false;
  return true;
}

// A name for a number read from a member of passive data (`o.x`: "o_x").
std::string memberName(const Expr *e) {
  const auto *m = dyn_cast<MemberExpr>(e->IgnoreParenImpCasts());
  if (!m || !m->getMemberDecl()->getIdentifier()) return "";
  const auto *d = dyn_cast<DeclRefExpr>(m->getBase()->IgnoreParenImpCasts());
  if (!d || !d->getDecl()->getIdentifier()) return "";
  return d->getDecl()->getName().str() + "_" + m->getMemberDecl()->getName().str();
}

const VarDecl *aliasOf(const Stmt *s, const Aliases &aliases) {
  const auto *d = dyn_cast_or_null<DeclRefExpr>(s);
  const auto *v = d ? dyn_cast<VarDecl>(d->getDecl()) : nullptr;
  return v && aliases.count(v) ? v : nullptr;
}

bool readsTextLike(const Stmt *s, const Aliases &aliases) {
  if (!s) return false;
  if (textParamOf(s) || aliasOf(s, aliases)) return true;
  for (const Stmt *c : s->children())
    if (readsTextLike(c, aliases)) return true;
  return false;
}

// What `s` reads of the function, in order: its references to text-like
// parameters and to names of passive data, and the integers it reads of
// the function otherwise (an index `names[i]`: each outermost integer
// expression reading no text, lowered as usual). False when it reads
// another value of the function (a float, an array, `this`) or holds a
// lambda.
bool onlyText(const Stmt *s, std::vector<const Expr *> &holes, const Aliases &aliases, bool top = true) {
  if (!s) return true;
  if (isa<LambdaExpr>(s) || isa<CXXThisExpr>(s) || isa<StmtExpr>(s)) return false;
  if (const auto *e = dyn_cast<Expr>(s); e && !top && !isa<ImplicitCastExpr>(e) &&
                                         e->getType()->isIntegralOrEnumerationType() && !readsTextLike(e, aliases) &&
                                         readsFunctionValues(e)) {
    holes.push_back(e);
    return true;
  }
  if (const auto *d = dyn_cast<DeclRefExpr>(s)) {
    if (textParamOf(d) || aliasOf(d, aliases)) {
      holes.push_back(d);
      return true;
    }
    const auto *vd = dyn_cast<VarDecl>(d->getDecl());
    return !vd || !vd->hasLocalStorage();
  }
  for (const Stmt *c : s->children())
    if (!onlyText(c, holes, aliases, false)) return false;
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

bool isTextLike(QualType t) { return isText(t) || passiveObject(t) || passiveDataType(t); }

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

const PassiveAlias *Lowering::passiveAlias(const Stmt *s) const {
  const VarDecl *v = aliasOf(s, passiveAliases_);
  return v ? &passiveAliases_.at(v) : nullptr;
}

// A method of passive data called with a value of the function other than
// an integer (`d.scale(w)`): its result would need a derivative.
void Lowering::refusePassiveCall(const Expr *e) {
  e = e->IgnoreParenImpCasts();
  const Expr *object = nullptr;
  const FunctionDecl *callee = nullptr;
  if (const auto *mc = dyn_cast<CXXMemberCallExpr>(e)) object = mc->getImplicitObjectArgument(), callee = mc->getMethodDecl();
  if (const auto *oc = dyn_cast<CXXOperatorCallExpr>(e); oc && oc->getNumArgs() > 0 && isa_and_nonnull<CXXMethodDecl>(oc->getDirectCallee()))
    object = oc->getArg(0), callee = oc->getDirectCallee();
  if (!object || !callee || !passiveClass(object->getType()) || !readsPassive(object)) return;
  std::string what = "a value of the function";
  std::function<void(const Stmt *)> find = [&](const Stmt *s) {
    const auto *d = dyn_cast_or_null<DeclRefExpr>(s);
    if (d && isa<VarDecl>(d->getDecl()) && cast<VarDecl>(d->getDecl())->hasLocalStorage() && !textVariable(d) &&
        !passiveAlias(d) && !d->getType()->isIntegralOrEnumerationType() && what[0] == 'a')
      what = "'" + d->getDecl()->getNameAsString() + "'";
    if (s)
      for (const Stmt *c : s->children()) find(c);
  };
  for (const Stmt *c : e->children())
    if (c != object) find(c);
  fail(e->getExprLoc(), "'" + callee->getNameAsString() + "' of passive data is given " + what +
                            ", which is not an integer: passive data is read with integers only (the result would "
                            "need a derivative: read the numbers it uses and compute it in the function)");
}

bool Lowering::readsPassive(const Stmt *s) const { return readsTextLike(s, passiveAliases_); }

bool Lowering::readsOnlyPassive(const Expr *e) const {
  std::vector<const Expr *> holes;
  return readsTextLike(e, passiveAliases_) && onlyText(e, holes, passiveAliases_);
}

// The spelling of `e` with a mark at each text parameter (its placeholder)
// and integer of the function it reads, and a name of passive data spelled
// as what it names, with its own marks.
bool Lowering::spellPassive(const Expr *e, Env &env, Binds &pre, PassiveAlias &out) {
  std::vector<const Expr *> holes;
  if (!onlyText(e, holes, passiveAliases_)) return false;
  MarkedSpelling marked;
  marked.langOpts = &ctx_.getLangOpts();
  marked.holes.insert(holes.begin(), holes.end());
  out.args.clear();
  for (const Expr *h : holes) {
    if (const PassiveAlias *alias = passiveAlias(h)) {
      marked.verbatim[h] = grouped(alias->spelling);
      out.args.insert(out.args.end(), alias->args.begin(), alias->args.end());
      continue;
    }
    if (const auto *d = dyn_cast<DeclRefExpr>(h); d && textParamOf(d)) {
      out.args.push_back(lowerDeclRef(d, env));
      continue;
    }
    EffectScope scope(*this, &pre);
    out.args.push_back(lowerExpr(h, env));
    QualType ct = h->getType().getCanonicalType().getUnqualifiedType();
    if (ct != ctx_.LongTy && ct != ctx_.BoolTy) marked.casts[h] = ct.getAsString(PrintingPolicy(ctx_.getLangOpts()));
  }
  out.spelling = marked.print(e);
  return true;
}

// `e` when it is computed from text (and the function's integers) alone: a
// number (`kind == "l1"`, `names[i] == "skip"`) as an Opaque of the text
// parameters and integers it reads; text itself (a literal given to a
// helper's text parameter) as a placeholder built from it; a struct of
// numbers read from passive data (`d.obs[i]`) as the struct of its fields'
// Opaques. Null otherwise.
ir::Expr Lowering::lowerTextExpr(const Expr *e, Env &env) {
  QualType t = e->getType();
  const bool number = t->isArithmeticType() || t->isEnumeralType();
  const llvm::StringRef text = number ? llvm::StringRef() : textRecord(t);
  const bool passiveStruct = !number && text.empty() && plainPassiveStruct(t);
  if (!number && text.empty() && !passiveStruct) {
    if (passiveDataType(t) && !isa<DeclRefExpr>(e->IgnoreParenImpCasts()) && readsPassive(e))
      fail(e->getExprLoc(), "passive data ('" + typeStr(t) + "') is read here as a value: read the numbers in it, "
                            "bind it to a const reference or pass it to a helper's const reference parameter");
    return nullptr;
  }
  if ((number || passiveStruct) && !readsPassive(e)) return nullptr; // (no text: lowered as usual)
  if (!number && !passiveStruct && textParamOf(e->IgnoreParenImpCasts())) return nullptr; // the parameter itself
  Binds pre;
  PassiveAlias spelled;
  if (!spellPassive(e, env, pre, spelled)) {
    refusePassiveCall(e);
    return nullptr;
  }
  const std::string &s = spelled.spelling;
  std::vector<ir::Expr> &args = spelled.args;
  if (passiveStruct) { // its fields, each read as written
    ir::TypeP st = typeOf(t.getUnqualifiedType(), e->getExprLoc());
    std::vector<ir::Expr> fields;
    unsigned k = 0;
    const auto *d = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts()); // (`o`: its fields read as o_x, o_y)
    Binds named;
    for (const FieldDecl *f : t.getNonReferenceType()->getAsCXXRecordDecl()->fields()) {
      ir::Expr field = ir::Opaque::make(grouped(s) + "." + f->getNameAsString(), args, st->elems[k++], onlyReads(e));
      if (d && d->getDecl()->getIdentifier() && !args.empty()) {
        std::string n = names_.fresh(d->getDecl()->getName().str() + "_" + f->getNameAsString());
        named.push_back({n, field});
        field = ir::Var::make(n, field->type);
      }
      fields.push_back(field);
    }
    return wrap(pre, wrap(named, ir::Tuple::makeStruct(st, fields)));
  }
  if (!number && text == "c_string") // (a literal as it is; text computed from text, as a C string)
  { // (spelled before the arguments move)
    std::string c = args.empty() ? s : "static_cast<const char *>(" + s + ")";
    return wrap(pre, ir::Opaque::make(std::move(c), std::move(args), ir::Type::i64()));
  }
  if (!number) // text for a helper: a string of its own, whatever the literal's type
    return wrap(pre, ir::Opaque::make("std::" + std::string(text == "basic_string" ? "string" : "string_view") + "(" +
                                          s + ")",
                                      std::move(args), ir::Type::i64()));
  std::string n = args.empty() ? std::string() : memberName(e);
  ir::Expr read =
      ir::Opaque::make("(" + s + ")", std::move(args), typeOf(t.getUnqualifiedType(), e->getExprLoc()), onlyReads(e));
  if (!n.empty()) { // (`o.x` read as o_x)
    n = names_.fresh(n);
    read = ir::Let::make(n, read, ir::Var::make(n, read->type));
  }
  return wrap(pre, read);
}

} // namespace unfad::frontend
