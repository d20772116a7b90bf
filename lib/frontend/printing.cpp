// Printing inside a differentiated function, as numerical code does it:
//   std::cout << "step " << k << ": loss " << loss << '\n';
//   if (it % 100 == 0) std::printf("%d %g\n", it, norm);
//   std::cerr << "warning: clamping x[" << i << "]\n";
// A printing statement is an ir::Effect: the generated code runs the same
// statement at the same point, once, with the function's numbers it reads
// (its arguments, lowered like a thrown exception's: exceptions.cpp's
// markNumbers) where it read them. f_grad prints what f prints, in order,
// before any adjoint is written; the backward sweep never prints again.
// Printing inside an expression (`(std::cout << x, y)`, `if (printf(...))`)
// and in recursive helpers (whose values the gradient recomputes by calling
// them) stays refused.
#include "lowering.h"
#include "unfad/ir/mutator.h"

#include <clang/AST/DeclCXX.h>
#include <clang/Basic/Builtins.h>

namespace unfad::frontend {

using namespace clang;

namespace {

// std::ostream and the streams derived from it (std::ofstream, std::ostringstream, ...).
bool outputStream(QualType t) {
  const auto *rd = t.getNonReferenceType()->getAsCXXRecordDecl();
  if (!rd || !rd->hasDefinition()) return false;
  if (rd->isInStdNamespace() && rd->getIdentifier() && rd->getName() == "basic_ostream") return true;
  for (const CXXBaseSpecifier &b : rd->bases())
    if (outputStream(b.getType())) return true;
  return false;
}

// The C library's output functions (`printf`, `fprintf(stderr, ...)`,
// `puts`, `fflush(stdout)`, ...).
bool cOutput(const FunctionDecl *fd) {
  unsigned id = fd ? fd->getBuiltinID() : 0;
  if (id == Builtin::BIprintf || id == Builtin::BIfprintf) return true;
  if (!fd || !fd->getIdentifier()) return false;
  const DeclContext *dc = fd->getDeclContext()->getRedeclContext();
  if (!dc->isTranslationUnit() && !(dc->isNamespace() && fd->isInStdNamespace())) return false;
  static const std::set<std::string> names{"printf", "fprintf", "puts", "fputs", "putchar", "fputc", "putc", "fflush"};
  return names.count(fd->getName().str()) > 0;
}

// Whether the call prints: a C output function, an operator or member of
// an output stream (`std::cout << x`, `std::cout.flush()`).
bool printingCall(const CallExpr *ce) {
  if (cOutput(ce->getDirectCallee())) return true;
  for (const Expr *a : ce->arguments())
    if (outputStream(a->getType())) return true;
  if (const auto *mc = dyn_cast<CXXMemberCallExpr>(ce)) return outputStream(mc->getObjectType());
  return false;
}

} // namespace

// A statement whose expression is a printing call.
bool printingStmt(const Expr *e) {
  const auto *ce = dyn_cast<CallExpr>(e->IgnoreParenImpCasts());
  return ce && printingCall(ce);
}

ir::Expr Lowering::lowerPrintStmt(const Expr *e, const Seq *rest, Env &env, const Tail &tail) {
  Binds pre;
  MarkedSpelling m = markNumbers(e, env, pre, "the statement printing here", true);
  ir::Expr print = ir::Effect::make(m.print(e), std::move(m.args));
  locs_[print.get()] = e->getExprLoc();
  return wrap(pre, effect(print, [&] { return lowerSeq(rest, env, tail); }));
}

// Printing anywhere but in a statement of its own (statements.cpp sends
// those to lowerPrintStmt): refused at the call with that reason (not at a
// parameter of the library's operator<<).
void Lowering::refuseOutput(const CallExpr *ce) {
  if (printingCall(ce))
    fail(ce->getExprLoc(), "printing inside an expression is not supported (print in a statement of its own: "
                           "'std::cout << ...;', 'printf(...);')");
}

// A recursive function that prints: its gradient calls it again for the
// values its pullback needs, which would print again. Refused at the print.
bool Lowering::checkRecursivePrinting(const Entry &en) {
  if (!recursive_.count(en.fn.name)) return false;
  struct Find : ir::Visitor {
    const ir::Effect *found = nullptr;
    void visit(const ir::Effect *n) override {
      if (!found) found = n;
    }
  } find;
  find.visitExpr(en.fn.body);
  if (!find.found) return false;
  reportAt(en, find.found, "printing inside the recursive function '" + en.def->getNameAsString() +
                               "' is not supported (its gradient calls it again for the values its pullback needs, "
                               "which would print again; print from its caller)");
  return true;
}

} // namespace unfad::frontend
