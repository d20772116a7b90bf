// Diagnostics: the error reporting of the front end, the constructs that
// make a body unsupported whatever else it contains, and the array checks
// after lowering (reported at the source locations of the IR nodes).
#include "lowering.h"

#include <clang/AST/DeclCXX.h>
#include <clang/AST/RecursiveASTVisitor.h>

namespace unfad::frontend {

using namespace clang;

namespace {

// The constructs that make a body unsupported whatever else it contains,
// reported first (in source order) so the diagnostic names the real culprit.
class Prescan : public RecursiveASTVisitor<Prescan> {
public:
  SourceLocation loc;
  std::string what;
  bool found(SourceLocation l, std::string w) {
    loc = l;
    what = std::move(w);
    return false; // stop
  }
  bool TraverseLambdaExpr(LambdaExpr *e) { return found(e->getBeginLoc(), "lambda expressions are not supported"); }
  bool VisitSwitchStmt(SwitchStmt *s) { return found(s->getBeginLoc(), "'switch' statements are not supported yet"); }
  bool VisitGotoStmt(GotoStmt *s) { return found(s->getBeginLoc(), "'goto' is not supported"); }
  bool VisitIndirectGotoStmt(IndirectGotoStmt *s) { return found(s->getBeginLoc(), "'goto' is not supported"); }
  bool VisitCXXTryStmt(CXXTryStmt *s) { return found(s->getBeginLoc(), "exceptions are not supported ('try' statement)"); }
  bool VisitCXXThrowExpr(CXXThrowExpr *e) { return found(e->getBeginLoc(), "exceptions are not supported ('throw' expression)"); }
  bool VisitAsmStmt(AsmStmt *s) { return found(s->getAsmLoc(), "inline assembly is not supported"); }
  bool VisitCallExpr(CallExpr *c) {
    if (const auto *mc = dyn_cast<CXXMemberCallExpr>(c)) {
      const CXXMethodDecl *m = mc->getMethodDecl();
      if (m && m->isVirtual())
        return found(c->getExprLoc(), "virtual calls are not supported ('" + m->getNameAsString() + "')");
      return true;
    }
    if (isa<CXXPseudoDestructorExpr>(c->getCallee()->IgnoreParens())) return true;
    if (!c->getDirectCallee() && !c->isTypeDependent())
      return found(c->getExprLoc(), "calls through function pointers are not supported");
    return true;
  }
};

} // namespace

void Lowering::fail(SourceLocation loc, const std::string &what) {
  report(loc, what);
  throw Abort{};
}

// An error inside a standard-library body is the user's call's: reported there.
void Lowering::report(SourceLocation loc, const std::string &what) {
  if (loc.isValid() && callSite_.isValid() && sm_.isInSystemHeader(sm_.getExpansionLoc(loc))) {
    diags_.Report(callSite_, diagID_) << current_ << what + " (inside '" + calledAt_ + "', called here)";
    return;
  }
  diags_.Report(loc, diagID_) << current_ << what;
}

// Reported first (in source order) so the diagnostic names the real culprit.
void Lowering::prescan(const FunctionDecl *fd) {
  Prescan pre;
  pre.TraverseStmt(const_cast<Stmt *>(fd->getBody()));
  if (!pre.what.empty()) fail(pre.loc, pre.what);
}

bool Lowering::bodyRefused(const FunctionDecl *fd) {
  Prescan pre;
  pre.TraverseStmt(const_cast<Stmt *>(fd->getBody()));
  return !pre.what.empty();
}

// Param::written from the summaries, then the order rule and the outputs of
// `void` marked functions; one error per function is enough.
void Lowering::checkArrays() {
  std::vector<const ir::Function *> lowered;
  for (const Entry &en : entries_)
    if (en.ok) lowered.push_back(&en.fn);
  ir::ArrayParamUses uses = ir::arrayParamUses(lowered);
  for (Entry &en : entries_) {
    if (!en.ok) continue;
    const ir::ArrayParamUse &use = uses.at(en.fn.name);
    bool output = false;
    for (size_t k = 0; k < en.fn.params.size(); ++k) {
      en.fn.params[k].written = use.writes[k];
      output |= use.writes[k] && en.fn.params[k].active;
    }
    std::vector<ir::ArrayOrderViolation> violations = ir::arrayOrderViolations(en.fn, uses);
    if (!violations.empty()) {
      reportArrayOrder(en, violations.front());
      failed_ = true;
    } else if (en.marked && en.fn.result->isUnit() && !output) {
      diags_.Report(en.def->getLocation(), diagID_)
          << en.root << "return type 'void' is not floating-point, and the function writes no floating-point output parameter";
      failed_ = true;
    }
  }
}

void Lowering::reportArrayOrder(const Entry &en, const ir::ArrayOrderViolation &v) {
  auto loc = locs_.find(v.at);
  SourceLocation at = loc != locs_.end() ? loc->second : en.def->getLocation();
  if (en.callSite.isValid() && sm_.isInSystemHeader(sm_.getExpansionLoc(at))) at = en.callSite;
  auto name = en.arrayNames.find(v.array);
  std::string array = name != en.arrayNames.end() ? name->second : v.array;
  std::string what;
  switch (v.kind) {
  case ir::ArrayOrderViolation::WrittenAfterRead:
    what = "array '" + array + "' is written after it is read (not supported yet)";
    break;
  case ir::ArrayOrderViolation::PassedTwiceToWriter:
    what = "array '" + array + "' is passed twice to a function that writes it (outputs must not alias inputs)";
    break;
  case ir::ArrayOrderViolation::RowWrittenByCallee:
    what = "writes into arrays of arrays are not supported yet ('" + v.callee +
           "' writes the row it is given; use a flat array and 'a[i * n + j]')";
    break;
  }
  diags_.Report(at, diagID_) << en.root << what;
}

} // namespace unfad::frontend
