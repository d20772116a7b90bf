// Diagnostics: the error reporting of the front end, the constructs that
// make a body unsupported whatever else it contains, and the array checks
// after lowering (reported at the source locations of the IR nodes).
#include "lowering.h"
#include "unfad/ir/mutator.h"
#include "unfad/ir/traverse.h"

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
  // a lambda's body is checked like the function's (lambdas.cpp lowers it into its callers)
  bool TraverseLambdaExpr(LambdaExpr *e) {
    if (e->isMutable()) return found(e->getBeginLoc(), "mutable lambdas are not supported");
    for (const LambdaCapture &c : e->captures())
      if (c.capturesThis() && c.getCaptureKind() == LCK_StarThis)
        return found(c.getLocation(), "capturing '*this' by copy is not supported (capture 'this')");
    return RecursiveASTVisitor::TraverseLambdaExpr(e);
  }
  bool VisitGotoStmt(GotoStmt *s) { return found(s->getBeginLoc(), "'goto' is not supported"); }
  bool VisitIndirectGotoStmt(IndirectGotoStmt *s) { return found(s->getBeginLoc(), "'goto' is not supported"); }
  bool VisitCXXTryStmt(CXXTryStmt *s) { return found(s->getBeginLoc(), "exceptions are not supported ('try' statement)"); }
  bool VisitAsmStmt(AsmStmt *s) { return found(s->getAsmLoc(), "inline assembly is not supported"); }
  bool VisitCallExpr(CallExpr *c) {
    if (const auto *mc = dyn_cast<CXXMemberCallExpr>(c)) {
      const CXXMethodDecl *m = mc->getMethodDecl();
      if (m && m->isVirtual())
        return found(c->getExprLoc(), "virtual calls are not supported ('" + m->getNameAsString() + "')");
      return true;
    }
    if (isa<CXXPseudoDestructorExpr>(c->getCallee()->IgnoreParens())) return true;
    // (a call through a template's function pointer parameter is bound to its argument: lambdas.cpp)
    const auto *callee = dyn_cast<DeclRefExpr>(c->getCallee()->IgnoreParenImpCasts());
    if (callee && isa<ParmVarDecl>(callee->getDecl())) return true;
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

// Param::written and Param::inout from the summaries, then the aliasing
// rules and the outputs of `void` marked functions; one error per function
// is enough.
void Lowering::checkArrays() {
  std::vector<const ir::Function *> lowered;
  for (const Entry &en : entries_)
    if (en.ok && !en.dropped) lowered.push_back(&en.fn);
  ir::ArrayParamUses uses = ir::arrayParamUses(lowered);
  recursive_ = ir::recursiveFunctions(lowered); // (never inlined)
  for (Entry &en : entries_) {
    if (!en.ok || en.dropped) continue;
    const ir::ArrayParamUse &use = uses.at(en.fn.name);
    bool anyInOut = false;
    for (size_t k = 0; k < en.fn.params.size(); ++k) {
      en.fn.params[k].written = use.writes[k];
      // (a staged table is read whole before it is written whole: an output)
      en.fn.params[k].inout = use.inout[k] && !stagedTable(en, en.fn.params[k].name);
      anyInOut |= en.fn.params[k].inout;
    }
    // A marked function with in/out parameters runs again at the end of
    // its gradient (so they end as it leaves them); an output it adds into
    // before assigning it would be added into twice unless the backward
    // sweep also puts it back: it is restored as an in/out parameter.
    if (en.fn.marked && anyInOut)
      for (size_t k = 0; k < en.fn.params.size(); ++k)
        if (use.accumulates[k]) en.fn.params[k].inout = true;
  }
  for (Entry &en : entries_) {
    if (!en.ok || en.dropped) continue;
    // (in/out arrays are supported, and so are aliased arguments of a
    // helper that is inlined: every one but a recursive one)
    std::vector<ir::ArrayOrderViolation> violations;
    // (but not an array of arrays read and then written: the reverse sweep
    // puts back what a store overwrote in a flat array only)
    auto rowsInOut = [&](const ir::ArrayOrderViolation &v) {
      for (auto &p : en.fn.params)
        if (p.name == v.array) return p.type->isArray() && p.type->elem()->isArray() && !stagedTable(en, p.name);
      return false;
    };
    for (auto &v : ir::arrayOrderViolations(en.fn, uses))
      if ((v.kind != ir::ArrayOrderViolation::WrittenAfterRead || rowsInOut(v)) &&
          (v.kind != ir::ArrayOrderViolation::PassedTwiceToWriter || recursive_.count(v.callee)))
        violations.push_back(v);
    bool output = false;
    for (auto &p : en.fn.params) output |= p.written && p.active;
    if (!violations.empty()) {
      reportArrayOrder(en, violations.front());
      failed_ = true;
    } else if (checkRecursivePrinting(en)) { // (printing.cpp)
      failed_ = true;
    } else if (!en.fn.tangent && checkUncopyable(en, uses)) {
      // (forward mode neither tapes nor runs the function again: nothing to copy)
      failed_ = true;
    } else if (en.marked && en.fn.result->isUnit() && !output) {
      // An output left out of UNFAD_GRADIENT_WRT's list (`WRT(x)` on
      // `void f(const double* x, double* y)`): say which one to name.
      std::string left;
      for (auto &p : en.fn.params)
        if (p.written && !p.active && p.type->isArray() && p.type->elem()->isFloat()) left = p.name;
      std::string message =
          "return type 'void' is not floating-point, and the function writes no floating-point output parameter";
      if (!left.empty())
        message += " it differentiates: it writes '" + left + "', which UNFAD_GRADIENT_WRT leaves out (name it in the list: UNFAD_GRADIENT_WRT(..., " + left + "))";
      diags_.Report(en.def->getLocation(), diagID_) << en.root << message;
      failed_ = true;
    }
  }
}

// An in/out array parameter is restored element by element where it is
// stored to, but a recursive helper (never inlined) writing it needs a copy
// from before the call (for the helper's pullback), and so does a while
// loop writing it (counted before it is taped): a pointer parameter cannot
// be copied, its length unknown.
bool Lowering::checkUncopyable(const Entry &en, const ir::ArrayParamUses &uses) {  // The in/out parameter of unknown length `array` names, or null.
  auto uncopyable = [&](const ir::Expr &array) -> const ir::Param * {
    const auto *v = ir::rootArray(array)->as<ir::Var>();
    for (size_t k = 0; v && k < en.fn.params.size(); ++k)
      if (en.fn.params[k].name == v->name)
        return en.fn.params[k].inout && k < en.fn.cxx.params.size() && !en.fn.cxx.params[k].knowsSize() ? &en.fn.params[k]
                                                                                                         : nullptr;
    return nullptr;
  };
  // Writes of such an array by a recursive callee, or inside a while loop
  // (whose iterations are counted by running it once before the taped run).
  struct Writes : ir::Visitor {
    std::vector<std::pair<const ir::Node *, ir::Expr>> calls, inWhile; // (where, array)
    const ir::ArrayParamUses *uses;
    int whileDepth = 0;
    void visit(const ir::While *w) override {
      ++whileDepth;
      ir::Visitor::visit(w);
      --whileDepth;
    }
    void visit(const ir::Store *s) override {
      if (whileDepth) inWhile.push_back({s, s->array});
      ir::Visitor::visit(s);
    }
    void visit(const ir::Call *c) override {
      if (auto use = uses->find(c->callee); use != uses->end())
        for (size_t j = 0; j < c->args.size() && j < use->second.writes.size(); ++j)
          if (use->second.writes[j]) (whileDepth ? inWhile : calls).push_back({c, c->args[j]});
      ir::Visitor::visit(c);
    }
  } writes;
  writes.uses = &uses;
  writes.visitExpr(en.fn.body);
  auto cxxName = [&](const std::string &ir) {
    auto name = en.arrayNames.find(ir);
    return name != en.arrayNames.end() ? name->second : ir;
  };
  for (auto &[at, array] : writes.inWhile)
    if (const ir::Param *p = uncopyable(array)) {
      reportAt(en, at, "array '" + cxxName(p->name) + "' is updated in place in a 'while' loop, and its length is not known here (a pointer); pass a std::vector or std::array");
      return true;
    }
  // (a function with a registered derivative is never inlined either)
  auto custom = [&](const std::string &callee) -> const ir::Function * {
    for (const Entry &e : entries_)
      if (e.ok && e.fn.name == callee && !e.fn.cxx.customPullback.empty()) return &e.fn;
    return nullptr;
  };
  for (auto &[at, array] : writes.calls) {
    const std::string &callee = static_cast<const ir::Call *>(at)->callee;
    const ir::Param *p = uncopyable(array);
    if (p && recursive_.count(callee)) {
      reportAt(en, at, "array '" + cxxName(p->name) + "' is updated in place and the recursive function '" + callee +
                           "' writes it, but its length is not known here (a pointer); pass a std::vector or std::array");
      return true;
    }
    const ir::Function *g = custom(callee);
    bool readsFirst = false; // (an output's pullback reads what the call left: no copy)
    for (size_t j = 0; g && j < g->params.size(); ++j)
      readsFirst |= g->params[j].inout && static_cast<const ir::Call *>(at)->args[j] == array;
    if (p && g && readsFirst) {
      reportAt(en, at, "array '" + cxxName(p->name) + "' is updated in place and '" + g->cxx.name +
                           "' (UNFAD_CUSTOM_GRADIENT) writes it: its pullback needs a copy from before the call, "
                           "but its length is not known here (a pointer); pass a std::vector or std::array");
      return true;
    }
  }
  return false;
}

void Lowering::reportAt(const Entry &en, const ir::Node *at, const std::string &what) {
  auto loc = locs_.find(at);
  SourceLocation where = loc != locs_.end() ? loc->second : en.def->getLocation();
  if (en.callSite.isValid() && sm_.isInSystemHeader(sm_.getExpansionLoc(where))) where = en.callSite;
  diags_.Report(where, diagID_) << en.root << what;
}

void Lowering::reportArrayOrder(const Entry &en, const ir::ArrayOrderViolation &v) {
  auto name = en.arrayNames.find(v.array);
  std::string array = name != en.arrayNames.end() ? name->second : v.array;
  std::string what;
  switch (v.kind) {
  case ir::ArrayOrderViolation::WrittenAfterRead: // (only arrays of arrays)
    what = "array of arrays '" + array + "' is written after it is read: in/out arrays of arrays are supported as a "
           "marked function's std::vector<std::vector<T>>& or std::vector<std::array<T, N>>& parameter, not in this "
           "form yet (an output written before it is read is; or use a flat array and 'a[i * n + j]')";
    break;
  case ir::ArrayOrderViolation::PassedTwiceToWriter:
    what = "array '" + array + "' is passed twice to the recursive function '" + v.callee +
           "', which writes it (a recursive helper is not inlined, and its pullback assumes distinct arrays)";
    break;
  case ir::ArrayOrderViolation::RowWrittenByCallee:
    what = "writes into arrays of arrays are not supported yet ('" + v.callee +
           "' writes the row it is given; use a flat array and 'a[i * n + j]')";
    break;
  }
  reportAt(en, v.at, what);
}

} // namespace unfad::frontend
