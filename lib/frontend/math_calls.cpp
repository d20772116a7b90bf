// More of <cmath> and <algorithm> as people call them: std::fma (a * b + c),
// std::clamp (two comparisons, each argument evaluated once), and
// unfad::no_grad (the value, without derivatives: an Opaque call, whose
// cotangent the reverse pass forgets).
#include "lowering.h"

namespace unfad::frontend {

using namespace clang;

namespace {

bool inNamespace(const FunctionDecl *fd, llvm::StringRef ns) {
  const DeclContext *dc = fd->getDeclContext()->getRedeclContext();
  while (dc && dc->isInlineNamespace()) dc = dc->getParent();
  const auto *n = dyn_cast_or_null<NamespaceDecl>(dc);
  return n && n->getName() == ns && n->getParent()->getRedeclContext()->isTranslationUnit();
}

} // namespace

ir::Expr Lowering::lowerMoreMath(const CallExpr *ce, const FunctionDecl *fd, Env &env) {
  if (!fd->getIdentifier()) return nullptr;
  llvm::StringRef n = fd->getName();
  SourceLocation loc = ce->getExprLoc();
  bool global = fd->getDeclContext()->getRedeclContext()->isTranslationUnit();
  if (n == "no_grad" && inNamespace(fd, "unfad") && ce->getNumArgs() == 1) {
    ir::Expr x = lowerExpr(ce->getArg(0), env);
    if (!x->type->isScalar()) fail(loc, "unfad::no_grad of a non-scalar value is not supported");
    return ir::Opaque::make("unfad::no_grad", {x}, x->type);
  }
  bool std = inNamespace(fd, "std");
  if (!std && !(global && (n.starts_with("fma") || n == "__builtin_fma"))) return nullptr;
  ir::TypeP t;
  auto valueType = [&] { return typeOf(ce->getType().getNonReferenceType().getUnqualifiedType(), loc); };
  Binds binds; // each argument evaluated once
  auto once = [&](const Expr *arg, const char *hint) {
    ir::Expr e = convert(lowerExpr(arg, env), t);
    if (e->is<ir::Var>() || e->is<ir::Const>()) return e;
    binds.push_back({names_.fresh(hint), e});
    return ir::Var::make(binds.back().first, t);
  };
  if ((n == "fma" || n == "fmaf" || n == "fmal" || n == "__builtin_fma") && ce->getNumArgs() == 3) {
    t = valueType();
    if (!t->isFloat()) return nullptr;
    std::vector<ir::Expr> a;
    for (unsigned k = 0; k < 3; ++k) a.push_back(convert(lowerExpr(ce->getArg(k), env), t));
    return ir::Prim::make(ir::Op::Add, {ir::Prim::make(ir::Op::Mul, {a[0], a[1]}), a[2]});
  }
  if (n == "clamp" && std && ce->getNumArgs() == 3) { // (the overload with a comparator is not this one)
    t = valueType();
    if (!t->isScalar()) fail(loc, "std::clamp of a non-scalar value is not supported");
    ir::Expr v = once(ce->getArg(0), "v"), lo = once(ce->getArg(1), "lo"), hi = once(ce->getArg(2), "hi");
    // v < lo ? lo : hi < v ? hi : v
    ir::Expr upper = ir::If::make(ir::Prim::make(ir::Op::Lt, {hi, v}), hi, v);
    return wrap(binds, ir::If::make(ir::Prim::make(ir::Op::Lt, {v, lo}), lo, upper));
  }
  return nullptr;
}

} // namespace unfad::frontend
