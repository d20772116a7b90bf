// Helpers returning a std::vector or a std::array by value:
//
//   std::vector<double> scaled(const std::vector<double>& v, double s) {
//     std::vector<double> r(v.size());
//     for (...) r[i] = s * v[i];
//     return r;
//   }
//   auto y = scaled(x, s);  ...  s += dot(scaled(x, 2.0), w);
//
// The IR has no array results (an array is a buffer, one variable, never
// rebound), so such a helper is lowered into its caller, in continuation
// style: the helper's statements up to its one `return` are lowered where the
// call's statement stands, and the caller's statement and the rest of its
// block continue inside them, with the array the helper returns as one of the
// caller's locals. A `return r;` of the helper's own local array hands that
// buffer over (no copy: it takes the name of the caller's variable); a
// `return {a, b, c};`, `return v;` of a parameter or any other array
// expression fills a new one. The calls a statement makes are lowered before
// it, in evaluation order (arguments first), so they may appear anywhere it
// evaluates unconditionally: a declaration's initializer, an assignment, a
// `return`, an argument of another call, an `if`/`switch` condition, the
// range of a range-based `for`. In a loop condition or an operand of `?:`,
// `&&`, `||` (evaluated conditionally or repeatedly) they are diagnosed.
//
// What is refused, at the construct: a helper with a `return` other than its
// last statement, recursion, methods returning arrays, arrays of arrays, and
// assigning a returned std::vector to an existing vector (its length would
// change: declare a new local instead; a std::array is copied element by
// element).
#include "lowering.h"

#include <clang/AST/DeclCXX.h>
#include <clang/AST/RecursiveASTVisitor.h>

#include <algorithm>

namespace unfad::frontend {

using namespace clang;

// member_arrays.cpp
bool methodCallParts(const CallExpr *ce, const CXXMethodDecl *def, const Expr *&object,
                     std::vector<const Expr *> &args);

// `e` without the temporaries, cleanups and conversions around a call's value.
const Expr *stripTemporaries(const Expr *e) {
  while (true) {
    e = e->IgnoreParens();
    if (const auto *c = dyn_cast<ExprWithCleanups>(e)) e = c->getSubExpr();
    else if (const auto *m = dyn_cast<MaterializeTemporaryExpr>(e)) e = m->getSubExpr();
    else if (const auto *b = dyn_cast<CXXBindTemporaryExpr>(e)) e = b->getSubExpr();
    else if (const auto *i = dyn_cast<ImplicitCastExpr>(e); i && i->getCastKind() == CK_NoOp) e = i->getSubExpr();
    else if (const auto *f = dyn_cast<CXXFunctionalCastExpr>(e); f && f->getCastKind() == CK_NoOp) e = f->getSubExpr();
    else return e;
  }
}

namespace {

// The `return` statements of a body (not those of lambdas or local classes in it).
struct Returns : RecursiveASTVisitor<Returns> {
  std::vector<const ReturnStmt *> found;
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }
  bool TraverseCXXRecordDecl(CXXRecordDecl *) { return true; }
  bool VisitReturnStmt(ReturnStmt *r) {
    found.push_back(r);
    return true;
  }
};

// `x`, or what a copy or move construction of it copies (`return R;` whose
// copy the compiler elides).
const Expr *copiedFrom(const Expr *x) {
  if (const auto *cc = dyn_cast<CXXConstructExpr>(x); cc && cc->getNumArgs() == 1 &&
                                                      cc->getConstructor()->isCopyOrMoveConstructor())
    return stripTemporaries(cc->getArg(0));
  return x;
}

// `return v;` of a local variable (not a reference, not a parameter) of
// `def` itself: that variable.
const VarDecl *returnedOwnLocal(const Expr *x, const FunctionDecl *def) {
  const auto *d = dyn_cast<DeclRefExpr>(copiedFrom(x));
  const auto *vd = d ? dyn_cast<VarDecl>(d->getDecl()) : nullptr;
  if (vd && !isa<ParmVarDecl>(vd) && vd->isLocalVarDecl() && !vd->getType()->isReferenceType() &&
      vd->getDeclContext() == def)
    return vd;
  return nullptr;
}

} // namespace

const CallExpr *Lowering::returnedArrayCall(const Expr *e) const {
  if (!e) return nullptr;
  const auto *c = dyn_cast<CallExpr>(stripTemporaries(e));
  const FunctionDecl *fd = c ? c->getDirectCallee() : nullptr;
  if (!fd) return nullptr;
  if (const_cast<Lowering *>(this)->returnsVectorObject(fd)) return c; // an object owning vectors (vector_members.cpp)
  // (an operator the user defines on arrays, `Vec3 operator-(const Vec3&,
  // const Vec3&)`, is a call like any other; the standard library's are
  // element accesses and assignments)
  if (isa<CXXOperatorCallExpr>(c) && (fd->isInStdNamespace() || !fd->hasBody())) return nullptr;
  QualType rt = fd->getReturnType();
  if (rt->isReferenceType() || rt->isPointerType() || rt->isDependentType()) return nullptr;
  ArrayInfo ai;
  if (!const_cast<Lowering *>(this)->arrayInfo(rt, ai, SourceLocation()) || ai.kind == ArrayInfo::Pointer) return nullptr;
  return c;
}

void Lowering::collectReturnedArrays(const Stmt *s, std::vector<const CallExpr *> &out) const {
  if (!s || isa<LambdaExpr>(s)) return;
  // what is evaluated conditionally stays where it is (and is diagnosed there)
  if (const auto *co = dyn_cast<AbstractConditionalOperator>(s)) return collectReturnedArrays(co->getCond(), out);
  if (const auto *b = dyn_cast<BinaryOperator>(s); b && b->isLogicalOp()) return collectReturnedArrays(b->getLHS(), out);
  for (const Stmt *c : s->children()) collectReturnedArrays(c, out);
  if (const auto *e = dyn_cast<Expr>(s))
    if (const CallExpr *c = returnedArrayCall(e); c == s && !returnedArrays_.count(c)) out.push_back(c);
}

const Expr *Lowering::hoistedArray(const Expr *init) const {
  const CallExpr *c = returnedArrayCall(init);
  return c && returnedArrays_.count(c) ? c : nullptr;
}

ir::Expr Lowering::hoistReturnedArrays(const Stmt *s, Env &env, const Tail &k, const VarDecl *named) {
  std::vector<const CallExpr *> calls;
  collectReturnedArrays(s, calls);
  if (calls.empty()) return k(env);
  const CallExpr *c = calls.front();
  std::string name = named && returnedArrayCall(named->getInit()) == c && !named->getName().empty()
                         ? named->getNameAsString()
                         : std::string();
  return lowerReturnedArray(c, name, env, [&, c](Env &e, const ir::Expr &arr) {
    returnedArrays_[c] = arr;
    ir::Expr r = hoistReturnedArrays(s, e, k, named);
    returnedArrays_.erase(c);
    returnedObjects_.erase(c);
    return r;
  });
}

// The call `ce` of a helper returning an array, lowered into the caller: its
// statements, then k with the caller's environment (its variables the
// helper assigned through references updated) and the returned array.
ir::Expr Lowering::lowerReturnedArray(const CallExpr *ce, const std::string &name, Env &env, const ArrayTail &k) {
  const FunctionDecl *fd = ce->getDirectCallee();
  std::string fname = fd->getNameAsString();
  SourceLocation loc = ce->getExprLoc();
  CallSiteScope site(*this, ce, fd); // (errors in its body are this call's)
  const FunctionDecl *def = fd->getDefinition();
  if (!def || !def->hasBody() || isa<CXXTryStmt>(def->getBody()))
    fail(loc, "call to '" + fname + "' whose body is not visible (it returns an array, which needs its body)");
  // an object owning vectors (a Matrix: vector_members.cpp), also from a method
  bool object = returnsVectorObject(def);
  const auto *method = dyn_cast<CXXMethodDecl>(def);
  if (method && method->isStatic()) method = nullptr;
  if (def->isVariadic()) fail(loc, "calls to variadic functions are not supported ('" + fname + "')");
  if (std::find(inlining_.begin(), inlining_.end(), def) != inlining_.end())
    fail(loc, std::string("recursive calls of a function returning ") + (object ? "an object" : "an array") +
                  " are not supported ('" + fname + "')");
  const Expr *selfObject = nullptr;
  std::vector<const Expr *> args(ce->arg_begin(), ce->arg_end());
  if (method ? !methodCallParts(ce, method, selfObject, args) : ce->getNumArgs() != def->getNumParams())
    fail(loc, "call with a wrong number of arguments");
  QualType rt = def->getReturnType().getUnqualifiedType();
  ArrayInfo ai;
  if (!object) arrayInfo(rt, ai, def->getLocation());
  // (a fixed-size table, a Mat3: a flat array whose shape its type gives)
  if (ArrayInfo inner; !object && arrayInfo(ai.elem, inner, SourceLocation(), 1) && !fixedTable(rt))
    fail(loc, "functions returning arrays of arrays are only supported with fixed sizes ('" + fname + "' returns '" +
                  typeStr(rt) + "'; return a std::array<std::array<T, N>, M>, or a flat std::vector and use 'a[i * n + j]')");
  checkFunction(def);
  const auto *body = cast<CompoundStmt>(def->getBody());
  const ReturnStmt *ret = body->body_empty() ? nullptr : dyn_cast<ReturnStmt>(body->body_back());
  Returns rs;
  rs.TraverseStmt(const_cast<CompoundStmt *>(body));
  for (const ReturnStmt *r : rs.found)
    if (r != ret)
      fail(r->getBeginLoc(), "'" + fname + "' returns an array by value before its end, which is not supported (a function "
                             "returning an array must have one 'return', its last statement)");
  if (!ret || !ret->getRetValue())
    fail(body->getRBracLoc(), "'" + fname + "' must end with 'return' of its array");

  // the arguments, with their side effects, in the caller
  Env bound = env;
  Binds binds;
  std::vector<const VarDecl *> roots; // the caller's variables it may assign
  {
    EffectScope es(*this, &binds);
    bindInlinedParams(def, args, env, bound, binds, roots);
    if (method) bindThis(ThisBinding{method, selfObject, nullptr}, env, bound, binds, roots);
  }
  Env inner = env; // the caller's variables as the arguments left them, and the parameters
  for (const ParmVarDecl *p : def->parameters())
    if (bound.count(p)) inner[p] = bound.at(p);
  for (const auto &[d, v] : bound) // (the members of struct parameters and of `this`)
    if (leafDecls_.count(d)) inner[d] = v;
  const VarDecl *self = method ? thisVar(method) : nullptr;
  if (self && bound.count(self)) inner[self] = bound.at(self); // (an object held as a value)

  Inlined in;
  in.result = ir::Type::unit();
  in.roots = roots;
  std::vector<ir::TypeP> ts{in.result};
  for (const VarDecl *r : roots) ts.push_back(env.at(r)->type);
  Binds *callerEffects = effects_;
  std::string callerWhere = noEffectsWhere_;
  InlineScope scope(*this, def, &in, ir::Type::tuple(ts));
  effects_ = nullptr; // the helper's statements are statements

  // Back in the caller with the returned array: its state while its rest is
  // lowered (inside the helper's lets), the helper's again afterwards.
  auto resume = [&](Env &at, const ir::Expr &arr) -> ir::Expr {
    Env back = env;
    for (const VarDecl *r : roots) back[r] = at.at(r);
    const Inlined *hIn = inline_;
    ir::TypeP hRes = result_;
    std::vector<const LoopCtx *> hLoops = loops_;
    auto hOnReturn = onReturn_;
    inline_ = scope.savedInline, result_ = scope.savedResult, loops_ = scope.savedLoops, onReturn_ = scope.savedOnReturn;
    effects_ = callerEffects, noEffectsWhere_ = callerWhere;
    inlining_.pop_back();
    if (self) thisStack_.pop_back();
    ir::Expr out = k(back, arr);
    if (self) thisStack_.push_back(self);
    inlining_.push_back(def);
    inline_ = hIn, result_ = hRes, loops_ = hLoops, onReturn_ = hOnReturn;
    effects_ = nullptr;
    return out;
  };
  const Expr *value = ret->getRetValue();
  // An object owning vectors: its leaves (returnedObjects_), the first array standing for it.
  auto handOver = [&](Env &at, const std::vector<ir::Expr> &leaves) -> ir::Expr {
    returnedObjects_[ce] = leaves;
    std::vector<ViewLeaf> shape = viewLeaves(rt);
    size_t first = 0;
    while (!shape[first].vector) ++first;
    return resume(at, leaves[first]);
  };
  std::function<ir::Expr(const Expr *, Env &)> returnObject = [&](const Expr *x, Env &e2) -> ir::Expr {
    // `return R;` of its own local object: R's arrays (a copy the compiler elides)
    if (const VarDecl *vd = returnedOwnLocal(x, def); vd && viewLocals_.count(vd))
      return handOver(e2, objectLeaves(vd, rt, e2));
    // `return mul(A, B);`: the object mul returned
    if (const CallExpr *c = returnedArrayCall(copiedFrom(x)); c && returnedObjects_.count(c))
      return handOver(e2, returnedObjects_.at(c));
    // anything else (`return A;` of a parameter, `return Matrix(n, n);`) is a new local object
    auto *tmp = VarDecl::Create(ctx_, const_cast<FunctionDecl *>(def), value->getBeginLoc(), value->getBeginLoc(),
                                &ctx_.Idents.get(name.empty() ? fname + "_result" : name), rt,
                                ctx_.getTrivialTypeSourceInfo(rt), SC_None);
    tmp->setInit(const_cast<Expr *>(x));
    return lowerViewStructLocal(tmp, e2, [&](Env &e3) { return handOver(e3, objectLeaves(tmp, rt, e3)); });
  };
  Tail atReturn = [&](Env &e) -> ir::Expr {
    return hoistReturnedArrays(value, e, [&](Env &e2) -> ir::Expr {
      const Expr *x = stripTemporaries(value);
      if (object) return returnObject(x, e2);
      // `return r;` of its own local array (a copy or a move the compiler elides): that buffer
      if (const VarDecl *vd = returnedOwnLocal(x, def);
          vd && !growLen_.count(vd) && (!flatStride_.count(vd) || fixedTable(rt)) && e2.count(vd) &&
          e2.at(vd)->type->isArray())
        return resume(e2, e2.at(vd));
      // `return g(x);`: the array g returned
      if (const CallExpr *c = returnedArrayCall(x); c && returnedArrays_.count(c)) return resume(e2, returnedArrays_.at(c));
      // anything else initialises a new array, as a local would be
      auto *tmp = VarDecl::Create(ctx_, const_cast<FunctionDecl *>(def), value->getBeginLoc(), value->getBeginLoc(),
                                  &ctx_.Idents.get(name.empty() ? fname + "_result" : name), rt,
                                  ctx_.getTrivialTypeSourceInfo(rt), SC_None);
      tmp->setInit(const_cast<Expr *>(x));
      return lowerLocalArray(tmp, ai, e2, [&](Env &e3) { return resume(e3, e3.at(tmp)); });
    });
  };
  // the returned local array takes the name of the caller's variable
  const Expr *rx = stripTemporaries(value);
  if (const auto *cc = dyn_cast<CXXConstructExpr>(rx); cc && cc->getNumArgs() == 1) rx = stripTemporaries(cc->getArg(0));
  if (const auto *d = dyn_cast<DeclRefExpr>(rx))
    if (const auto *vd = dyn_cast<VarDecl>(d->getDecl())) {
      if (!object) {
        if (name.empty()) arrayNameHints_.erase(vd);
        else arrayNameHints_[vd] = name;
      } else if (!vd->getType()->isReferenceType() && isViewStruct(vd->getType())) { // its arrays: `C_data_`
        std::string own = vd->getNameAsString();
        for (const ViewLeaf &l : viewLeaves(vd->getType())) {
          const VarDecl *leaf = leafVar(vd, l.path, l.type);
          if (!l.vector) continue;
          if (name.empty()) arrayNameHints_.erase(leaf);
          else arrayNameHints_[leaf] = name + leaf->getNameAsString().substr(own.size());
        }
      }
    }
  Seq s{body->body_begin(), body->body_end() - 1, nullptr};
  struct ThisScope { // the object `this` names in a method's body
    std::vector<const VarDecl *> &stack;
    bool pushed;
    ~ThisScope() { if (pushed) stack.pop_back(); }
  } thisScope{thisStack_, self != nullptr};
  if (self) thisStack_.push_back(self);
  ir::Expr out = lowerSeq(&s, inner, atReturn);
  effects_ = callerEffects, noEffectsWhere_ = callerWhere;
  return wrap(binds, out);
}

std::optional<Lowering::Flat> Lowering::fixedTable(QualType t) {
  ArrayInfo outer, inner, third;
  if (!arrayInfo(t.getNonReferenceType(), outer, SourceLocation()) || outer.kind != ArrayInfo::StdArray ||
      outer.size < 0 || !arrayInfo(outer.elem, inner, SourceLocation(), 1) || inner.kind != ArrayInfo::StdArray ||
      inner.size < 0 || arrayInfo(inner.elem, third, SourceLocation(), 2))
    return std::nullopt;
  return Flat{ir::Const::makeInt(inner.size), ir::Const::makeInt(outer.size)};
}

const VarDecl *Lowering::flatTableVar(const Expr *e) const {
  const auto *d = dyn_cast<DeclRefExpr>(copiedFrom(stripTemporaries(e)));
  const auto *vd = d ? dyn_cast<VarDecl>(d->getDecl()) : nullptr;
  return vd && flatStride_.count(vd) ? vd : nullptr;
}

// A reference to a std::vector of std::vectors (`const Grid& g`, `Grid& g`).
static bool rowsVectorRef(QualType t) {
  QualType row = t->isReferenceType() ? stdContainerElement(t, "vector") : QualType();
  return !row.isNull() && !stdContainerElement(row, "vector").isNull();
}

bool Lowering::passesFixedTable(const CallExpr *ce, const FunctionDecl *fd) {
  const FunctionDecl *def = fd->getDefinition();
  if (!def || ce->getNumArgs() != def->getNumParams() || isa<CXXOperatorCallExpr>(ce)) return false;
  for (unsigned k = 0; k < ce->getNumArgs(); ++k) {
    QualType pt = def->getParamDecl(k)->getType();
    if (fixedTable(pt) && (flatTableVar(ce->getArg(k)) || hoistedArray(copiedFrom(stripTemporaries(ce->getArg(k))))))
      return true;
    if (rowsVectorRef(pt) && flatTableVar(ce->getArg(k))) return true; // (a table held flat given as a Grid&)
  }
  return false;
}

bool Lowering::bindFixedTableParam(const ParmVarDecl *p, const Expr *arg, Env &env, Env &inner, Binds &binds) {
  flatStride_.erase(p); // (bound afresh at every inlined call)
  std::optional<Flat> shape = fixedTable(p->getType());
  if (const VarDecl *vd = shape ? nullptr : flatTableVar(arg); vd && rowsVectorRef(p->getType()))
    shape = flatStride_.at(vd); // a vector of rows held flat: the table's own shape
  if (!shape) return false;
  ir::Expr flat;
  if (const VarDecl *vd = flatTableVar(arg))
    flat = lookupVar(vd, env, arg->getExprLoc());
  else if (const Expr *c = hoistedArray(copiedFrom(stripTemporaries(arg))))
    flat = returnedArrays_.at(cast<CallExpr>(c));
  else
    return false; // (an array of arrays: a parameter of the marked function, a row of a table)
  if (!p->getType()->isReferenceType()) { // by value: the helper's own copy
    std::string n = names_.fresh(p->getNameAsString());
    ir::Expr size = tableLength(*shape);
    ir::Expr copy = ir::Var::make(n, flat->type);
    binds.push_back({n, ir::NewArray::make(size, flat->type->elem())});
    binds.push_back({names_.fresh("_"), effectLoop(size, [&](const ir::Expr &j) {
                       return store(copy, j, read(flat, j, p->getLocation()), ir::Store::Mode::Set, p->getLocation());
                     })});
    flat = copy;
  }
  inner[p] = flat;
  flatStride_[p] = *shape;
  return true;
}

const Stmt *Lowering::hoistablePart(const Stmt *st) {
  if (isa<Expr>(st)) return st;
  if (const auto *r = dyn_cast<ReturnStmt>(st)) return r->getRetValue();
  if (const auto *i = dyn_cast<IfStmt>(st); i && !i->getInit() && !i->getConditionVariable()) return i->getCond();
  if (const auto *w = dyn_cast<SwitchStmt>(st); w && !w->getInit() && !w->getConditionVariable()) return w->getCond();
  if (const auto *f = dyn_cast<CXXForRangeStmt>(st); f && !f->getInit()) return f->getRangeInit();
  return nullptr;
}

bool Lowering::lowerReturnedArrayAssign(const Expr *e, const Seq *rest, Env &env, const Tail &tail, ir::Expr &out) {
  const auto *oc = dyn_cast<CXXOperatorCallExpr>(stripTemporaries(e));
  if (!oc || oc->getOperator() != OO_Equal || oc->getNumArgs() != 2) return false;
  const CallExpr *c = returnedArrayCall(oc->getArg(1));
  if (!c || !returnedArrays_.count(c)) return false;
  ArrayInfo ai;
  if (!arrayInfo(oc->getArg(0)->getType(), ai, SourceLocation())) return false;
  SourceLocation loc = oc->getOperatorLoc();
  std::string fname = c->getDirectCallee()->getNameAsString();
  const auto *named = dyn_cast<DeclRefExpr>(oc->getArg(0)->IgnoreParenImpCasts());
  if (const auto *vd = named ? dyn_cast<VarDecl>(named->getDecl()) : nullptr;
      vd && growingLength(oc->getArg(0)) && !viewArrays_.count(vd) && !flatStride_.count(vd)) {
    const ir::Expr src = returnedArrays_.at(c); // `h = layer(L, h);`: h takes the result's length
    out = growAssignFrom(vd, src, ir::Size::make(src), loc, rest, env, tail);
    return true;
  }
  if (ai.kind != ArrayInfo::StdArray || ai.size < 0)
    fail(loc, "assigning the std::vector '" + fname + "' returns to an existing vector is not supported yet (declare a "
              "new local, 'auto y = " + fname + "(...);', or use a std::array of a fixed size)");
  const VarDecl *flatDst = flatTableVar(oc->getArg(0)); // (`R = mul(R, X);` of a Mat3)
  ir::Expr dst = flatDst ? lookupVar(flatDst, env, loc) : lowerArrayRef(oc->getArg(0), env), src = returnedArrays_.at(c);
  if (!ir::sameType(dst->type, src->type)) fail(loc, "copy between arrays of different types");
  const std::optional<Flat> table = fixedTable(oc->getArg(0)->getType());
  ir::Expr eff = effectLoop(table ? tableLength(*table) : ir::Const::makeInt(ai.size), [&](const ir::Expr &j) {
    return store(dst, j, read(src, j, loc), ir::Store::Mode::Set, loc);
  });
  out = effect(eff, [&] { return lowerSeq(rest, env, tail); });
  return true;
}

} // namespace unfad::frontend
