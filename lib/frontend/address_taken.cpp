// Variables whose address is taken, as C code passes its outputs:
//
//   static void polar(double x, double y, double* r, double* th) { *r = ...; *th = ...; }
//   double r, th;
//   polar(x, y, &r, &th);
//   State st{x0, v0};
//   for (...) step(&st, h);          // void step(State* s, double h) { s->x += ...; }
//
// A pointer is a view into an array (pointers.cpp), so a local scalar or
// struct whose address the function takes (`&r` anywhere in its body) lives
// in memory: a one-element local array (a "cell") allocated at the
// declaration, holding the initial value. `&r` is a view of the cell; a read
// of `r` reads its element; an assignment to `r` (or to a member of it,
// directly, through a reference or by a helper lowered into the caller)
// stores into it (bindAndContinue). Helpers then take `&r` as any pointer
// into an array (`*p = v`, `p->x += v`, `p[0]`), also in their own
// generated functions, and their writes reach the variable. A parameter
// passed by value whose address is taken is such a cell too, holding the
// argument.
#include "lowering.h"

namespace unfad::frontend {

using namespace clang;

namespace {

bool takesAddressOf(const Stmt *s, const VarDecl *vd) {
  if (!s) return false;
  if (const auto *u = dyn_cast<UnaryOperator>(s); u && u->getOpcode() == UO_AddrOf)
    if (const auto *d = dyn_cast<DeclRefExpr>(u->getSubExpr()->IgnoreParenImpCasts()); d && d->getDecl() == vd) return true;
  for (const Stmt *c : s->children())
    if (takesAddressOf(c, vd)) return true;
  return false;
}

} // namespace

bool Lowering::addressTaken(const VarDecl *vd) {
  QualType t = vd->getType();
  if (t->isReferenceType() || !vd->hasLocalStorage() || isa<DecayedType>(t.getTypePtr())) return false;
  if (ArrayInfo ai; arrayInfo(t, ai, SourceLocation())) return false; // (an array is memory already)
  const auto *rd = t->getAsCXXRecordDecl();
  if (!t->isArithmeticType() && !(rd && rd->isAggregate() && !isViewStruct(t) && !isTextLike(t) && !tupleLike(t)))
    return false;
  const auto *fn = dyn_cast_or_null<FunctionDecl>(vd->getParentFunctionOrMethod());
  return fn && takesAddressOf(fn->getBody(), vd);
}

ir::Expr Lowering::lowerCellLocal(const VarDecl *vd, Env &env, const std::function<ir::Expr(Env &)> &next) {
  ir::TypeP t = typeOf(vd->getType().getUnqualifiedType(), vd->getLocation());
  Binds binds;
  ir::Expr init;
  {
    EffectScope scope(*this, &binds);
    init = vd->getInit() ? convert(lowerExpr(vd->getInit(), env), t) : ir::Const::zero(t);
  }
  bindCell(vd, init, env, binds);
  return wrap(binds, next(env));
}

// `vd`'s cell, holding `init`, allocated by `binds`; `vd` names it in `env`.
// (A parameter's too: a copy of the argument, as C++ passes it. `init` is
// taken by value: it may be the entry of `env` the cell replaces.)
void Lowering::bindCell(const VarDecl *vd, ir::Expr init, Env &env, Binds &binds) {
  const std::string name = names_.fresh(vd->getNameAsString());
  const ir::Expr cell = ir::Var::make(name, ir::Type::array(init->type));
  binds.push_back({name, ir::NewArray::make(ir::Const::makeInt(1), init->type)});
  localLengths_[name] = ir::Const::makeInt(1);
  env[vd] = cell;
  cells_.insert(vd);
  binds.push_back({names_.fresh("_"), storeCell(vd, env, init)});
}

ir::Expr Lowering::cellValue(const VarDecl *vd, Env &env) {
  const ir::Expr &v = env.at(vd);
  return cells_.count(vd) ? read(v, ir::Const::makeInt(0), vd->getLocation()) : v;
}

ir::Expr Lowering::storeCell(const VarDecl *vd, Env &env, const ir::Expr &value) {
  return ir::Store::make(env.at(vd), ir::Const::makeInt(0), value, ir::Store::Mode::Set);
}

ir::Expr Lowering::cellAddress(const Expr *e, Env &env) {
  const auto *d = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
  const auto *vd = d ? dyn_cast<VarDecl>(d->getDecl()) : nullptr;
  if (!vd || !cells_.count(vd) || !env.count(vd)) return nullptr;
  return ir::View::make(env.at(vd), ir::Const::makeInt(0));
}

} // namespace unfad::frontend
