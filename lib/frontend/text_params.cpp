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

const ParmVarDecl *textParamOf(const Stmt *s) {
  const auto *d = dyn_cast_or_null<DeclRefExpr>(s);
  const auto *p = d ? dyn_cast<ParmVarDecl>(d->getDecl()) : nullptr;
  return p && isTextType(p->getType()) ? p : nullptr;
}

// The references to text parameters in `s`; false when it reads another
// value of the function (a local, a non-text parameter, `this`) or holds a
// lambda.
bool onlyText(const Stmt *s, std::vector<const DeclRefExpr *> &refs) {
  if (!s) return true;
  if (isa<LambdaExpr>(s) || isa<CXXThisExpr>(s) || isa<StmtExpr>(s)) return false;
  if (const auto *d = dyn_cast<DeclRefExpr>(s)) {
    if (textParamOf(d)) {
      refs.push_back(d);
      return true;
    }
    const auto *vd = dyn_cast<VarDecl>(d->getDecl());
    return !vd || !vd->hasLocalStorage();
  }
  for (const Stmt *c : s->children())
    if (!onlyText(c, refs)) return false;
  return true;
}

// Prints an expression with each text parameter as a kArg mark.
struct MarkText : PrinterHelper {
  const std::set<const Stmt *> *holes;
  bool handledStmt(Stmt *st, raw_ostream &os) override {
    if (!holes->count(st)) return false;
    os << ir::Throw::kArg;
    return true;
  }
};

} // namespace

bool isTextType(QualType t) { return !textRecord(t).empty(); }

// `e` when it is computed from text alone: a number (`kind == "l1"`) as an
// Opaque of the text parameters it reads; text itself (a literal given to a
// helper's text parameter) as a placeholder built from it. Null otherwise.
ir::Expr Lowering::lowerTextExpr(const Expr *e, Env &env) {
  QualType t = e->getType();
  const bool number = t->isArithmeticType() || t->isEnumeralType();
  const llvm::StringRef text = number ? llvm::StringRef() : textRecord(t);
  if (!number && text.empty()) return nullptr;
  std::vector<const DeclRefExpr *> refs;
  if (!onlyText(e, refs)) return nullptr;
  if (number && refs.empty()) return nullptr; // (no text: lowered as usual)
  if (!number && refs.size() == 1 && textParamOf(e->IgnoreParenImpCasts())) return nullptr; // the parameter itself
  std::set<const Stmt *> holes(refs.begin(), refs.end());
  MarkText mark;
  mark.holes = &holes;
  PrintingPolicy pp(ctx_.getLangOpts());
  pp.SuppressImplicitBase = true;
  std::string spelled;
  llvm::raw_string_ostream os(spelled);
  e->printPretty(os, &mark, pp);
  os.flush();
  std::vector<ir::Expr> args;
  for (const DeclRefExpr *d : refs) args.push_back(lowerDeclRef(d, env));
  if (!number && text == "c_string") // (a literal as it is; text computed from text, as a C string)
    return ir::Opaque::make(refs.empty() ? spelled : "static_cast<const char *>(" + spelled + ")", std::move(args),
                            ir::Type::i64());
  if (!number) // text for a helper: a string of its own, whatever the literal's type
    return ir::Opaque::make("std::" + std::string(text == "basic_string" ? "string" : "string_view") + "(" + spelled + ")",
                            std::move(args), ir::Type::i64());
  return ir::Opaque::make("(" + spelled + ")", std::move(args), typeOf(t.getUnqualifiedType(), e->getExprLoc()));
}

} // namespace unfad::frontend
