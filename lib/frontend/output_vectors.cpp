// An output std::vector parameter sized by the function itself, as C++
// code returns vectors through parameters:
//   UNFAD_GRADIENT void softmax(const std::vector<double>& z, std::vector<double>& out) {
//     out.resize(z.size());
//     ...
// `out.resize(n)` or `out.assign(n, v)` as the first use of `out`, a
// statement of the marked function's body (not in a loop, a branch or a
// helper): f_grad resizes `out` the same way, once (ir::Resize, which
// replays skip), and `out.size()` reads n from then on. The caller passes
// `d_out` at the size f gives `out`. `resize(n, v)` is refused: it fills
// only the elements it adds, so what `out` holds depends on its old size.
#include "lowering.h"

#include <clang/AST/ExprCXX.h>

namespace unfad::frontend {

using namespace clang;

namespace {

// The first reference to `vd` in `s`, in source order.
const DeclRefExpr *firstUse(const Stmt *s, const VarDecl *vd) {
  if (!s) return nullptr;
  if (const auto *d = dyn_cast<DeclRefExpr>(s); d && d->getDecl() == vd) return d;
  for (const Stmt *c : s->children())
    if (const DeclRefExpr *d = firstUse(c, vd)) return d;
  return nullptr;
}

} // namespace

// `call` (resize, assign, clear) of the output `name` anywhere but as its
// first use in the marked function's body (also from a helper it is given
// to: resized_members.cpp).
void Lowering::refuseOutputResize(SourceLocation loc, const std::string &call, const std::string &name) {
  fail(loc, "'" + call + "' of output '" + name + "' is only supported as the first use of '" + name +
                "', a statement of the marked function's body (not in a loop, a branch or a helper)");
}

bool Lowering::lowerOutputResize(const Expr *e, const Seq *rest, Env &env, const Tail &tail, ir::Expr &out) {
  const auto *mc = dyn_cast<CXXMemberCallExpr>(e->IgnoreImplicit());
  const auto *md = mc ? mc->getMethodDecl() : nullptr;
  if (!md || !md->getIdentifier() || (md->getName() != "resize" && md->getName() != "assign" && md->getName() != "clear"))
    return false;
  const auto *obj = dyn_cast<DeclRefExpr>(mc->getImplicitObjectArgument()->IgnoreParenImpCasts());
  const auto *vd = obj ? dyn_cast<ParmVarDecl>(obj->getDecl()) : nullptr;
  ArrayInfo ai;
  if (!vd || !writableVectorParam(vd, ai) || !ai.elem->isArithmeticType()) return false;
  // (a helper's: resized_members.cpp resizes the array it is given)
  if (vd->getDeclContext() != currentRoot_) return false;
  std::string n = md->getName().str(), name = vd->getNameAsString();
  SourceLocation loc = mc->getExprLoc();
  const auto *body = loweringMarked_ ? dyn_cast<CompoundStmt>(currentRoot_->getBody()) : nullptr;
  bool top = body && vd->getDeclContext() == currentRoot_ && !inline_ && loops_.empty() &&
             llvm::is_contained(body->body(), e);
  if (!top || firstUse(body, vd) != obj) refuseOutputResize(loc, n, name);
  if (n == "clear") {
    out = lowerOutputGrowth(mc, cast<ParmVarDecl>(vd), rest, env, tail);
    return true;
  }
  if (n == "resize" && mc->getNumArgs() != 1)
    fail(loc, "'resize' with a value fills only the elements it adds; write '" + name + ".assign(n, value)' or '" +
                  name + ".resize(n)'");
  if (n == "assign" && (mc->getNumArgs() != 2 || !mc->getArg(0)->getType()->isIntegralOrEnumerationType()))
    fail(loc, "'assign' of output '" + name + "' is only supported as '" + name + ".assign(n, value)'");
  ir::Expr array = lowerArrayRef(obj, env);
  Binds pre;
  ir::Expr size = convert(lowerFull(mc->getArg(0), env, pre), ir::Type::i64());
  std::string sizeName = names_.fresh(name + "_size");
  ir::Expr sizeVar = ir::Var::make(sizeName, ir::Type::i64());
  resizedLength_[vd] = sizeVar;
  ir::Expr fill;
  if (n == "assign") fill = fillElements(array, nullptr, sizeVar, convert(lowerFull(mc->getArg(1), env, pre), array->type->elem()), loc);
  ir::Expr k = effect(ir::Resize::make(array, sizeVar), [&] {
    return fill ? effect(fill, [&] { return lowerSeq(rest, env, tail); }) : lowerSeq(rest, env, tail);
  });
  out = wrap(pre, ir::Let::make(sizeName, size, k));
  return true;
}

// `out.clear();` then `out.push_back(v)` (in loops of any kind, in
// branches): `out` is a growing vector (growing_vectors.cpp) whose buffer is
// `out` itself, grown as a push needs room (ensureRoom: geometrically, as
// std::vector grows) and, at every exit of the function, cut to its length:
// f_grad leaves `out` as f does, and the caller passes d_out at that length.
ir::Expr Lowering::lowerOutputGrowth(const CXXMemberCallExpr *clear, const ParmVarDecl *vd, const Seq *rest, Env &env,
                                     const Tail &tail) {
  ir::Expr array = lowerArrayRef(clear->getImplicitObjectArgument(), env);
  Binds binds;
  bindGrowingLength(vd, ir::Const::makeInt(0), env, binds);
  const VarDecl *len = growLen_.at(vd);
  // its size, read once: the pushes that grow it update this variable
  const VarDecl *cap = syntheticLong(vd, "_room");
  growCap_[len] = cap;
  std::string room = names_.fresh(vd->getNameAsString() + "_room");
  binds.push_back({room, ir::Size::make(array)});
  env[cap] = ir::Var::make(room, ir::Type::i64());
  auto cut = [this, array, len](const ir::Expr &v, Env &e) {
    return effect(ir::Resize::make(array, e.at(len)), [&] { return v; });
  };
  auto outer = onExit_;
  onExit_ = [cut, outer](const ir::Expr &v, Env &e) { return cut(outer ? outer(v, e) : v, e); };
  ir::Expr body = lowerSeq(rest, env, [&](Env &e) { return cut(tail(e), e); });
  onExit_ = outer;
  return wrap(binds, body);
}

} // namespace unfad::frontend
