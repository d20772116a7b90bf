// Classes as people write them: constructors, methods (const or not),
// operator overloads, `this`.
//
// A class whose data members are values (scalars, nested such classes) is
// a value, the IR struct of its fields, as a plain aggregate is. Nothing of
// it survives as a call: a constructor, a method or an operator is lowered
// into its caller, like a helper with a non-const reference parameter
// (references.cpp, inlineCall):
// - `*this` is a synthetic variable per method (thisVar). A non-const
//   method called on an lvalue (a local, an array element, a reference, a
//   field of one) binds it like a reference parameter to what the object
//   designates, so `x += v` in the body writes the caller's object; a const
//   method, or any method on a temporary, binds it to the object's value.
// - A constructor's object starts as its fields in declaration order: the
//   member-initialiser list, else the default member initialiser, else
//   zero; then its body runs as a non-const method on it, and the call's
//   value is the object it leaves.
// - A method returning a reference to its object (`Vec3& operator+=`) must
//   `return *this;`, the call's value is then the object.
// The generated code builds such objects with `T{f1, f2, ...}` (adjoints
// with zeros, `T{0.0, 0.0}`) and makes arrays of them (`std::vector<T>(n)`
// for adjoints), so a class that is not an aggregate is accepted only where
// those mean what they say (checkClass): a constructor taking every field in
// declaration order and storing it unchanged, and no default constructor
// or one that zeroes every field.
#include "lowering.h"

#include <clang/AST/DeclCXX.h>

namespace unfad::frontend {

using namespace clang;

namespace {

bool isZeroConstant(const Expr *e, ASTContext &ctx) {
  if (const auto *il = dyn_cast_or_null<InitListExpr>(e ? e->IgnoreImplicit() : nullptr)) { // an array member's `= {}`
    for (const Expr *x : il->inits())
      if (!isa<ImplicitValueInitExpr>(x) && !isZeroConstant(x, ctx)) return false;
    return !il->hasArrayFiller() || isa<ImplicitValueInitExpr>(il->getArrayFiller()) ||
           isZeroConstant(il->getArrayFiller(), ctx);
  }
  Expr::EvalResult r;
  if (!e || e->isValueDependent() || !e->EvaluateAsRValue(r, ctx)) return false;
  if (r.Val.isFloat()) return r.Val.getFloat().isZero();
  if (r.Val.isInt()) return r.Val.getInt().isZero();
  return false;
}

bool emptyBody(const FunctionDecl *fd) {
  const auto *cs = dyn_cast_or_null<CompoundStmt>(fd->getBody());
  return cs && cs->body_empty();
}

// `T{}` gives zeros in every field, or is no valid C++ (no default
// constructor): the generated code never builds a wrong object.
bool zeroConstructible(const CXXRecordDecl *rd, ASTContext &ctx, int depth = 0) {
  if (depth > 8) return false;
  const CXXConstructorDecl *def = nullptr;
  for (const CXXConstructorDecl *c : rd->ctors())
    if (c->isDefaultConstructor()) def = c;
  if (!def && !rd->needsImplicitDefaultConstructor()) return true;
  if (def && def->isDeleted()) return true;
  bool userProvided = def && def->isUserProvided();
  if (userProvided && !emptyBody(def)) return false;
  for (const CXXBaseSpecifier &b : rd->bases()) { // the base object: zeroed by its own default constructor
    const CXXRecordDecl *brd = b.getType()->getAsCXXRecordDecl();
    if (!brd || !zeroConstructible(brd, ctx, depth + 1)) return false;
    if (userProvided)
      for (const CXXCtorInitializer *ci : def->inits())
        if (ci->isBaseInitializer() && ci->isWritten()) return false;
  }
  for (const FieldDecl *f : rd->fields()) {
    const Expr *init = nullptr;
    if (const CXXCtorInitializer *ci = userProvided ? initializerOf(def, f) : nullptr; ci && ci->isWritten())
      init = ci->getInit();
    else if (f->hasInClassInitializer())
      init = f->getInClassInitializer();
    if (const CXXRecordDecl *frd = f->getType()->getAsCXXRecordDecl()) {
      if (init && !isa<CXXConstructExpr>(init->IgnoreImplicit()) && !isa<InitListExpr>(init->IgnoreImplicit()))
        return false;
      if (!zeroConstructible(frd, ctx, depth + 1)) return false;
      continue;
    }
    if (init ? !isZeroConstant(init, ctx) : userProvided) return false; // no initialiser: value-initialised
  }
  return true;
}

// A constructor parameter's value stored unchanged (through conversions
// that keep the type, or a copy of an object).
const ParmVarDecl *storedParam(const Expr *e) {
  e = e->IgnoreImplicit();
  if (const auto *c = dyn_cast<CXXConstructExpr>(e); c && c->getNumArgs() == 1 && c->getConstructor()->isCopyOrMoveConstructor())
    e = c->getArg(0)->IgnoreImplicit();
  const auto *d = dyn_cast<DeclRefExpr>(e);
  return d ? dyn_cast<ParmVarDecl>(d->getDecl()) : nullptr;
}

// `T{f1, ..., fn}` builds the object with these fields: a constructor
// whose parameters are the fields, in order, of the same types, stored
// unchanged, and an empty body.
bool memberwiseConstructible(const CXXRecordDecl *rd, ASTContext &ctx) {
  unsigned n = 0;
  for (const FieldDecl *f : rd->fields()) (void)f, ++n;
  for (const CXXConstructorDecl *c : rd->ctors()) {
    if (c->isCopyOrMoveConstructor() || c->getNumParams() != n || c->isDeleted() || !emptyBody(c)) continue;
    bool ok = true;
    for (const FieldDecl *f : rd->fields()) {
      const CXXCtorInitializer *ci = initializerOf(c, f);
      const ParmVarDecl *p = ci ? storedParam(ci->getInit()) : nullptr;
      unsigned k = f->getFieldIndex();
      ok = ok && p && p == c->getParamDecl(k) &&
           ctx.hasSameUnqualifiedType(p->getType().getNonReferenceType(), f->getType());
    }
    if (ok) return true;
  }
  return false;
}

} // namespace

const CXXCtorInitializer *initializerOf(const CXXConstructorDecl *ctor, const FieldDecl *f) {
  for (const CXXCtorInitializer *ci : ctor->inits())
    if (ci->getMember() == f) return ci;
  return nullptr;
}

const Expr *memberInitExpr(const CXXConstructorDecl *ctor, const FieldDecl *f) {
  const Expr *init = nullptr;
  if (const CXXCtorInitializer *ci = initializerOf(ctor, f)) init = ci->getInit();
  if (!init && f->hasInClassInitializer()) init = f->getInClassInitializer();
  if (init) init = stripNoOps(init);
  if (init && isa<CXXDefaultInitExpr>(init)) init = cast<CXXDefaultInitExpr>(init)->getExpr();
  return init;
}

bool classBuiltAsWritten(const CXXRecordDecl *crd, ASTContext &ctx);

// A mutable data member, refused at `loc` (the class spelled `spelled`,
// quoted): a const method's writes would be lost (`this` is a value there,
// or a split object's members are the caller's values).
void Lowering::refuseMutableMembers(const CXXRecordDecl *rd, const std::string &spelled, SourceLocation loc) {
  for (const FieldDecl *f : rd->fields())
    if (f->isMutable()) fail(loc, "type " + spelled + " has a mutable data member ('" + f->getNameAsString() + "')");
}

// A class that is not a plain aggregate: refused here, or accepted. Returns
// whether the generated code must mirror it (class_layout.cpp): when it
// cannot rebuild and zero its objects as written (see the file comment).
bool Lowering::checkClass(const CXXRecordDecl *crd, const std::string &spelled, SourceLocation loc) {
  refuseMutableMembers(crd, spelled, loc);
  for (const FieldDecl *f : crd->fields()) // (array members of a constant size are fields: member_arrays.cpp)
    if (ArrayInfo ai; memberArrayLength(f->getType(), nullptr) <= 0 && !f->getType()->isPointerType() &&
                      arrayInfo(f->getType(), ai, SourceLocation()))
      fail(loc, "type " + spelled + " has a member array of a run-time size ('" + f->getNameAsString() +
                    "'), which is not supported yet (members of a constant size, 'double r[3]' or "
                    "'std::array<double, 3>', are)");
  for (const FieldDecl *f : crd->fields())
    if (isStdFunction(f->getType()))
      fail(loc, "type " + spelled + " has a std::function member ('" + f->getNameAsString() +
                    "'), which is not supported (pass the callable to the function calling it, as a parameter)");
  bool plain = !crd->getNumBases() && !crd->isPolymorphic() && crd->isTriviallyCopyable();
  if (plain && crd->isAggregate()) return false;
  if (sm_.isInSystemHeader(sm_.getExpansionLoc(crd->getLocation())))
    fail(loc, "type " + spelled + " is not supported: only structs of plain values (aggregates without bases) are");
  if (crd->isPolymorphic()) fail(loc, "classes with virtual functions are not supported (" + spelled + ")");
  if (crd->getNumBases()) checkBases(crd, spelled, loc); // class_layout.cpp
  if (!crd->isTriviallyCopyable())
    fail(loc, "type " + spelled + " is not supported: it has a user-defined copy, move or destructor "
              "(only classes that are copied as values are)");
  return crd->getNumBases() || !classBuiltAsWritten(crd, ctx_);
}

// `T{f1, ..., fn}` builds `rd`'s object from its fields and `T{}` zeroes
// it: public data members, a memberwise constructor and a zeroing (or no)
// default constructor.
bool classBuiltAsWritten(const CXXRecordDecl *crd, ASTContext &ctx) {
  for (const FieldDecl *f : crd->fields())
    if (f->getAccess() != AS_public) return false;
  return memberwiseConstructible(crd, ctx) && zeroConstructible(crd, ctx);
}

// Whether a default-constructed `t` is zero (or `t` has no default
// constructor); local_arrays.cpp declares it.
bool zeroDefault(QualType t, ASTContext &ctx) {
  if (complexType(t)) return true; // std::complex<double>() is (0, 0)
  const CXXRecordDecl *rd = t->getAsCXXRecordDecl();
  return !rd || !rd->hasDefinition() || zeroConstructible(rd, ctx);
}

const VarDecl *Lowering::thisVar(const CXXMethodDecl *m) {
  auto it = thisVars_.find(m);
  if (it != thisVars_.end()) return it->second;
  QualType t = ctx_.getRecordType(m->getParent());
  std::string name = "self";
  if (isa<CXXConstructorDecl>(m)) { // the new object: named after its class
    name = m->getParent()->getNameAsString();
    if (!name.empty()) name[0] = char(std::tolower(static_cast<unsigned char>(name[0])));
    else name = "object";
  }
  auto *vd = VarDecl::Create(ctx_, const_cast<CXXMethodDecl *>(m), m->getLocation(), m->getLocation(),
                             &ctx_.Idents.get(name), t, ctx_.getTrivialTypeSourceInfo(t), SC_None);
  thisVars_[m] = vd;
  return vd;
}

const VarDecl *Lowering::thisDecl(const Expr *e, bool deref) {
  if (thisStack_.empty() || !e) return nullptr;
  e = stripNoOps(e);
  if (deref) {
    const auto *u = dyn_cast<UnaryOperator>(e);
    if (!u || u->getOpcode() != UO_Deref) return nullptr;
    e = stripNoOps(u->getSubExpr());
  }
  return isa<CXXThisExpr>(e) ? thisStack_.back() : nullptr;
}

// A user's operator overload that is a free function: lowered into its
// caller (its name is no C++ identifier for a generated pullback).
bool Lowering::inlinedOperator(const FunctionDecl *fd) {
  const FunctionDecl *def = fd->getDefinition();
  return fd->isOverloadedOperator() && def && def->hasBody() &&
         !sm_.isInSystemHeader(sm_.getExpansionLoc(def->getLocation()));
}

// `obj.m(args)`, `this->m(args)`, `a + b` with a member `operator+`,
// `f(x)` with a member `operator()`.
ir::Expr Lowering::lowerMethodCall(const CallExpr *ce, const CXXMethodDecl *m, Env &env) {
  SourceLocation loc = ce->getExprLoc();
  std::string name = m->getNameAsString();
  if (m->isVirtual()) fail(loc, "virtual calls are not supported ('" + name + "')");
  const CXXRecordDecl *rd = m->getParent();
  const FunctionDecl *def = m->getDefinition();
  if (sm_.isInSystemHeader(sm_.getExpansionLoc(m->getLocation())) || !def || !def->hasBody())
    fail(loc, "calls to member functions of '" + typeStr(ctx_.getRecordType(rd)) + "' are not supported ('" + name +
                  "'" + (!def || !def->hasBody() ? ", whose body is not visible)" : ")"));
  std::vector<const Expr *> args;
  ThisBinding self;
  self.method = cast<CXXMethodDecl>(def);
  if (const auto *mc = dyn_cast<CXXMemberCallExpr>(ce)) {
    self.object = mc->getImplicitObjectArgument();
    args.assign(mc->arg_begin(), mc->arg_end());
  } else {
    self.object = ce->getArg(0);
    args.assign(ce->arg_begin() + 1, ce->arg_end());
  }
  if (m->isStatic()) return inlineCall(def, args, loc, env);
  if (ir::Expr a, i; vectorAccessor(ce, env, a, i)) return read(a, i, loc); // `A(i, j)` of a Matrix (vector_members.cpp)
  if (!isViewStruct(ctx_.getRecordType(rd))) structType(rd, ctx_.getRecordType(rd), loc); // a class unfad supports
  else if (chainedObject(self.object)) lowerExpr(self.object, env); // `g.scale(s).shift(d)`: scale first, before d (written_members.cpp)
  return inlineCall(def, args, loc, env, &self);
}

// What `this` names in a method's body, for one call (see the file comment).
void Lowering::bindThis(const ThisBinding &self, Env &env, Env &inner, Binds &binds,
                        std::vector<const VarDecl *> &roots) {
  if (bindViewThis(self, env, inner, binds, roots)) return; // a class owning vectors (vector_members.cpp)
  const VarDecl *tv = thisVar(self.method);
  refs_.erase(tv);
  ir::TypeP t = structType(self.method->getParent(), ctx_.getRecordType(self.method->getParent()), tv->getLocation());
  if (self.construct) { // the new object, a variable of the caller the body assigns
    env[tv] = ir::Const::zero(t);
    roots.push_back(tv);
    return;
  }
  const Expr *obj = self.object;
  SourceLocation loc = obj->getExprLoc();
  bool mutating = !self.method->isConst();
  int up = 0;
  if (mutating && (obj->isGLValue() || thisDeclUp(obj, up))) { // (`this` is a pointer: `this->m()`)
    RefTarget target;
    if (!lvalueTarget(obj, env, target, binds))
      fail(loc, "'" + self.method->getNameAsString() + "' changes its object, which must be a local variable, an "
                "array element, or a field of one");
    refs_[tv] = target;
    addRoots(target, roots);
    return;
  }
  ir::Expr v;
  if (const VarDecl *cur = thisDeclUp(obj, up)) v = projUp(lookupVar(cur, env, loc), up); // this->m() in a method
  else if (obj->getType()->isPointerType()) fail(loc, "calls of member functions through pointers are not supported");
  else v = convert(lowerExpr(obj, env), t);
  std::string hint = "self";
  if (const auto *d = dyn_cast<DeclRefExpr>(stripNoOps(obj))) hint = d->getDecl()->getNameAsString();
  std::string n = names_.fresh(hint);
  binds.push_back({n, v});
  inner[tv] = ir::Var::make(n, t);
}

// A constructor's object before its body: each field from the
// member-initialiser list, else its default member initialiser, else zero.
ir::Expr Lowering::constructedObject(const CXXConstructorDecl *ctor, const VarDecl *self, Env &inner) {
  const CXXRecordDecl *rd = ctor->getParent();
  SourceLocation loc = self ? self->getLocation() : ctor->getLocation();
  ir::TypeP t = structType(rd, ctx_.getRecordType(rd), loc);
  std::vector<ir::Expr> es;
  if (rd->getNumBases()) { // the base object first (class_layout.cpp): its constructor's
    const CXXCtorInitializer *base = nullptr;
    for (const CXXCtorInitializer *ci : ctor->inits())
      if (ci->isBaseInitializer()) base = ci;
    if (!base) fail(loc, "the constructor of '" + typeStr(ctx_.getRecordType(rd)) + "' does not show how it builds its base");
    es.push_back(convert(lowerExpr(base->getInit(), inner), t->elems[0]));
  }
  for (const FieldDecl *f : rd->fields()) {
    const Expr *init = nullptr;
    if (const CXXCtorInitializer *ci = initializerOf(ctor, f)) init = ci->getInit();
    if (!init && f->hasInClassInitializer()) init = f->getInClassInitializer();
    memberValues(init, f->getType(), t, inner, es); // (an array member: its elements, member_arrays.cpp)
  }
  return ir::Tuple::makeStruct(t, es);
}

// A call of a constructor of a user's class (not a trivial one).
ir::Expr Lowering::lowerClassConstruct(const CXXConstructExpr *c, Env &env) {
  SourceLocation loc = c->getExprLoc();
  const CXXConstructorDecl *ctor = c->getConstructor();
  const CXXRecordDecl *rd = ctor->getParent();
  std::string spelled = typeStr(c->getType());
  if (sm_.isInSystemHeader(sm_.getExpansionLoc(ctor->getLocation())))
    fail(loc, "calls to constructors of '" + spelled + "' are not supported");
  structType(rd, ctx_.getRecordType(rd), loc); // a class unfad supports
  const auto *def = dyn_cast_or_null<CXXConstructorDecl>(ctor->getDefinition());
  if (ctor->isDefaulted() && c->getNumArgs() == 0 && (!def || !def->hasBody())) // fields from their initialisers
    return constructedObject(ctor, nullptr, env);
  if (!def || !def->hasBody()) fail(loc, "call to the constructor of '" + spelled + "' whose body is not visible");
  if (ctor->isCopyOrMoveConstructor() && ctor->isDefaulted()) return convert(lowerExpr(c->getArg(0), env), structType(rd, ctx_.getRecordType(rd), loc));
  std::vector<const Expr *> args(c->arg_begin(), c->arg_end());
  ThisBinding self;
  self.method = def;
  self.construct = c;
  return inlineCall(def, args, loc, env, &self);
}

} // namespace unfad::frontend
