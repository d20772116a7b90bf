// Classes owning std::vector members, as C++ programmers write a matrix:
//
//   class Matrix {
//   public:
//     Matrix(int rows, int cols) : rows_(rows), cols_(cols), data_(rows * cols, 0.0) {}
//     double  operator()(int i, int j) const { return data_[i * cols_ + j]; }
//     double& operator()(int i, int j)       { return data_[i * cols_ + j]; }
//     int rows() const { return rows_; }
//   private:
//     int rows_, cols_;
//     std::vector<double> data_;
//   };
//
// Such a class is split into its members like an aggregate with vector
// members (view_structs.cpp): each vector member is the array it holds, each
// other member a local value. What this file adds:
// - Methods: `this` is bound to the object's leaves (bindViewThis), so
//   `data_[k]` in the body is the caller's array and `cols_` the caller's
//   value. A non-const method may write the elements of the vectors (they
//   are the caller's arrays) and the other members (the owner's locals:
//   written_members.cpp).
// - Accessors (vectorAccessor): a method whose body is `return data_[E];`
//   (`double& operator()(int, int)`, `double get(int, int) const`) is the
//   element `data_[E]` itself, read or written in place by its caller
//   (`K(i, j) = v`, `K(i, j) += v`), with no call left in the generated code.
// - Locals built by a constructor (member-initialiser list, default member
//   initialisers, a body) or by braces (`M k{n, n,
//   std::vector<double>(n * n)}`): each vector member is a fresh local array
//   allocated once, at the declaration or at the body's `data_.resize(n)`
//   that sizes it (after `rows_ = r; cols_ = c;`), its size computed at run
//   time (lowerVectorObjectLocal), each other member a let the body may
//   assign.
// - Copies (`Matrix B = A;`, `auto B = A;`, a by-value parameter `double
//   trace(Matrix A)`): each vector member a fresh local array filled from
//   the source's (copyVectorLeaf), allocated where the copy is made.
// - Objects returned by value (`Matrix transpose(const Matrix&)`, `Matrix
//   operator*(const Matrix&, const Matrix&)`, member operators and methods):
//   the call is lowered into its caller before its statement, like a helper
//   returning a std::vector (returned_arrays.cpp); a `return R;` of the
//   helper's local object hands R's arrays over (no copy: they take the
//   caller's variable's name), anything else is built or copied as a local
//   would be. returnedObjects_ holds the leaves while the statement is lowered,
//   so the call may be a local's initializer, a helper's argument or the object
//   of a method call (`(A * B + C).trace()`).
// Objects are also used through references (helpers' `const Matrix&` and
// `Matrix&` parameters, lowered into their callers). A marked function's `const Matrix&` parameter is split into its
// members (struct_params.cpp), whose names the generated code spells: its
// data members must be public (checkVectorClassParam).
#include "lowering.h"

#include <clang/AST/DeclCXX.h>

#include <memory>

namespace unfad::frontend {

using namespace clang;

// member_arrays.cpp
bool methodCallParts(const CallExpr *ce, const CXXMethodDecl *def, const Expr *&object,
                     std::vector<const Expr *> &args);

namespace {

const Expr *stripObjectTemporaries(const Expr *e) {
  while (true) {
    e = e->IgnoreImplicit()->IgnoreParens();
    if (const auto *m = dyn_cast<MaterializeTemporaryExpr>(e)) e = m->getSubExpr();
    else if (const auto *b = dyn_cast<CXXBindTemporaryExpr>(e)) e = b->getSubExpr();
    else if (const auto *f = dyn_cast<CXXFunctionalCastExpr>(e)) e = f->getSubExpr();
    else if (const auto *c = dyn_cast<ExprWithCleanups>(e)) e = c->getSubExpr();
    else return e;
  }
}

// `data_.resize(n * n)` / `data_.assign(n, v)` of a vector member of the
// constructor's object: that member (else null).
const FieldDecl *sizingCall(const Stmt *st, const CXXMemberCallExpr *&call) {
  if (const auto *e = dyn_cast<Expr>(st)) st = e->IgnoreImplicit(); // (cleanups of a `const T&` argument)
  const auto *mc = dyn_cast<CXXMemberCallExpr>(st);
  const auto *md = mc ? mc->getMethodDecl() : nullptr;
  if (!md || !md->getIdentifier() || (md->getName() != "resize" && md->getName() != "assign")) return nullptr;
  if (mc->getNumArgs() < 1 || mc->getNumArgs() > 2 || !mc->getArg(0)->getType()->isIntegerType()) return nullptr;
  const auto *mem = dyn_cast<MemberExpr>(mc->getImplicitObjectArgument()->IgnoreImplicit());
  if (!mem || !mem->isArrow() || !isa<CXXThisExpr>(mem->getBase()->IgnoreImplicit())) return nullptr;
  call = mc;
  return dyn_cast<FieldDecl>(mem->getMemberDecl());
}

// Whether `s` names the member `f`.
bool mentions(const Stmt *s, const FieldDecl *f) {
  if (!s) return false;
  if (const auto *m = dyn_cast<MemberExpr>(s); m && m->getMemberDecl() == f) return true;
  for (const Stmt *c : s->children())
    if (mentions(c, f)) return true;
  return false;
}

} // namespace

// A class (not an aggregate) that owns a std::vector member directly.
bool Lowering::ownsVector(const CXXRecordDecl *rd) {
  if (!rd || !rd->hasDefinition() || rd->isInStdNamespace() || rd->isLambda()) return false;
  for (const FieldDecl *f : rd->fields())
    if (arrayMember(f)) return true;
  return false;
}

// The `this` of the method being inlined, when `e` is `this` or `*this` and
// its class is split into leaves.
const VarDecl *Lowering::viewThisRoot(const Expr *e) {
  if (thisStack_.empty() || !e) return nullptr;
  const VarDecl *self = thisDecl(e);
  if (!self) self = thisDecl(e, true);
  return self && viewThis_.count(self) && viewLocals_.count(self) ? self : nullptr;
}

// `this` of a method of a split class, bound to the leaves of its object.
bool Lowering::bindViewThis(const ThisBinding &self, Env &env, Env &inner, Binds &binds,
                            std::vector<const VarDecl *> &roots) {
  const CXXRecordDecl *rd = self.method->getParent();
  QualType t = ctx_.getRecordType(rd);
  if (!isViewStruct(t)) return false;
  const VarDecl *tv = thisVar(self.method);
  SourceLocation loc = self.object ? self.object->getExprLoc() : tv->getLocation();
  if (self.construct)
    fail(loc, "objects of '" + typeStr(t) + "' (a class with std::vector members) can only be built as local variables "
              "('" + typeStr(t) + " m(...);'), not here");
  refuseMutableMembers(rd, "'" + typeStr(t) + "'", loc);
  const Expr *object = self.object; // (a chain's first object: lowerMethodCall ran the chain)
  while (const Expr *inner = chainedObject(object)) object = inner;
  std::vector<ir::Expr> vals = viewValues(object, t, env);
  viewThis_.insert(tv);
  viewLocals_.insert(tv);
  // (its vectors' elements may be written, and its number members when the
  // object has an owner: written_members.cpp)
  if (!self.method->isConst()) viewReadOnly_.insert(tv);
  else viewReadOnly_.erase(tv);
  bindViewLeaves(tv, t, vals, inner, binds);
  // (a method that writes no number member hands none back: its object's
  // members stay the values they were, which later sizes may be computed from)
  aliasNumberLeaves(env, tv, t, object, !self.method->isConst() && writesNumberMembers(self.method), &roots);
  return true;
}

// `K(i, j)`, `m.get(i, j)`, `v[i]` calling a method of a split class whose
// body is `return member[E];` for a std::vector member: that element.
bool Lowering::vectorAccessor(const Expr *e, Env &env, ir::Expr &array, ir::Expr &index) {
  const auto *ce = dyn_cast<CallExpr>(stripObjectTemporaries(e));
  const auto *md = ce ? dyn_cast_or_null<CXXMethodDecl>(ce->getDirectCallee()) : nullptr;
  if (!md || md->isStatic() || !isViewStruct(ctx_.getRecordType(md->getParent()))) return false;
  const auto *def = dyn_cast_or_null<CXXMethodDecl>(md->getDefinition());
  const Expr *value = singleReturnValue(def);
  if (!value) return false;
  // `data_[E]`: std::vector's operator[], or an owned buffer's subscript (owned_buffers.cpp)
  const Expr *ret = stripObjectTemporaries(value);
  const Expr *base = nullptr, *subscript = nullptr;
  if (const auto *sub = dyn_cast<CXXOperatorCallExpr>(ret); sub && sub->getOperator() == OO_Subscript && sub->getNumArgs() == 2)
    base = sub->getArg(0), subscript = sub->getArg(1);
  else if (const auto *ase = dyn_cast<ArraySubscriptExpr>(ret))
    base = ase->getBase(), subscript = ase->getIdx();
  if (!base) return false;
  const auto *mem = dyn_cast<MemberExpr>(stripObjectTemporaries(base));
  const auto *field = mem ? dyn_cast<FieldDecl>(mem->getMemberDecl()) : nullptr;
  if (!field || !mem->isArrow() || !isa<CXXThisExpr>(stripObjectTemporaries(mem->getBase())) || !arrayMember(field))
    return false;
  QualType rt = def->getReturnType();
  if (rt->isRValueReferenceType() || !ctx_.hasSameUnqualifiedType(rt.getNonReferenceType(), ret->getType().getNonReferenceType()))
    return false; // (a conversion of the element: an ordinary method)
  const Expr *object;
  std::vector<const Expr *> args;
  if (!methodCallParts(ce, def, object, args)) return false;
  QualType t = ctx_.getRecordType(def->getParent());
  const VarDecl *tv = thisVar(def);
  Env inner = env;
  std::vector<ir::Expr> vals = viewValues(object, t, env);
  std::vector<ViewLeaf> leaves = viewLeaves(t);
  for (size_t k = 0; k < leaves.size(); ++k) {
    if (leaves[k].pointer) return false; // (a pointer member: not a class this file splits)
    inner[leafVar(tv, leaves[k].path, leaves[k].type)] = vals[k];
  }
  for (unsigned a = 0; a < args.size(); ++a) {
    const ParmVarDecl *p = def->getParamDecl(a);
    if (!p->getType()->isIntegralOrEnumerationType()) return false; // indices only
    inner[p] = convert(lowerExpr(args[a], env), ir::Type::i64());
  }
  viewThis_.insert(tv);
  viewLocals_.insert(tv);
  thisStack_.push_back(tv);
  struct Pop {
    std::vector<const VarDecl *> &s;
    ~Pop() { s.pop_back(); }
  } pop{thisStack_};
  array = lowerArrayRef(base, inner);
  index = lowerIndexExpr(subscript, inner);
  return true;
}

// `Matrix K(n, n);` (a constructor with an empty body) or `M k{n, n,
// std::vector<double>(n * n)};`: the object's leaves made in place, each
// vector member a new local array. Null when `vd` is not such a local.
ir::Expr Lowering::lowerVectorObjectLocal(const VarDecl *vd, Env &env, const Tail &k) {
  QualType t = vd->getType();
  if (t->isReferenceType() || !hasVectorMember(t) || !vd->getInit()) return nullptr;
  const CXXRecordDecl *rd = t->getAsCXXRecordDecl();
  const Expr *init = stripObjectTemporaries(vd->getInit());
  const auto *ce = dyn_cast<CXXConstructExpr>(init);
  const auto *il = dyn_cast<InitListExpr>(init);
  if (il && il->isSyntacticForm() && il->getSemanticForm()) il = il->getSemanticForm();
  // (a copy runs the class's own copy constructor when it has one: a copy
  // of the members is what the implicit one does, bindViewLeaves)
  if (!rd || (!il && !ce) || (ce && ce->getConstructor()->isCopyOrMoveConstructor() && !userCopy(ce->getConstructor())))
    return nullptr;
  SourceLocation loc = vd->getLocation();
  std::string spelled = "'" + typeStr(t.getUnqualifiedType()) + "'";
  const CXXConstructorDecl *ctor = nullptr;
  const CompoundStmt *body = nullptr;
  CompoundStmt::const_body_iterator bodyFrom = nullptr;
  std::map<const FieldDecl *, const CXXMemberCallExpr *> sizedBy; // (the body's leading resizes)
  std::map<const FieldDecl *, const CXXMemberCallExpr *> deferred; // (its later ones: allocated there)
  std::map<const Stmt *, const FieldDecl *> deferredAt;
  if (ce) {
    if (sm_.isInSystemHeader(sm_.getExpansionLoc(ce->getConstructor()->getLocation()))) return nullptr;
    ctor = dyn_cast_or_null<CXXConstructorDecl>(ce->getConstructor()->getDefinition());
    if (!ctor || (!ctor->hasBody() && !ctor->isDefaulted()))
      fail(loc, "call to the constructor of " + spelled + " whose body is not visible");
    body = dyn_cast_or_null<CompoundStmt>(ctor->getBody());
    // The body's leading `data_.resize(n)` / `data_.assign(n, v)` of a member
    // it does not initialise otherwise size that member (nothing reads it
    // before): they are its initializer, the rest of the body runs on the
    // built object as a method does.
    if (body) {
      // The statement `it` sizing a vector member the initialisers leave
      // empty, sized by no statement before and mentioned by none: that
      // member and the call (else null).
      auto sizes = [&](CompoundStmt::const_body_iterator it, const CXXMemberCallExpr *&call) -> const FieldDecl * {
        const FieldDecl *f = sizingCall(*it, call);
        const CXXCtorInitializer *ci = f ? initializerOf(ctor, f) : nullptr;
        if (!f || !vectorMember(f->getType()) || (ci && ci->isWritten()) || f->hasInClassInitializer() ||
            sizedBy.count(f) || deferred.count(f))
          return nullptr;
        bool early = false;
        for (auto before = body->body_begin(); before != it; ++before) early |= mentions(*before, f);
        for (unsigned a = 0; a < call->getNumArgs(); ++a) early |= mentions(call->getArg(a), f);
        return early ? nullptr : f;
      };
      const CXXMemberCallExpr *call = nullptr;
      for (bodyFrom = body->body_begin(); bodyFrom != body->body_end(); ++bodyFrom)
        if (const FieldDecl *f = sizes(bodyFrom, call)) sizedBy[f] = call;
        else break;
      // Later `data_.resize(rows_ * cols_)`: the member is allocated there,
      // with the sizes the body's statements before it have set (`rows_ =
      // r; cols_ = c;`).
      for (auto it = bodyFrom; it != body->body_end(); ++it)
        if (const FieldDecl *f = sizes(it, call)) deferred[f] = call, deferredAt[*it] = f;
      for (auto it = bodyFrom; it != body->body_end(); ++it)
        if (const ReturnStmt *r = findReturn(*it))
          fail(r->getBeginLoc(), "'return' in the body of a constructor of " + spelled + " (a class "
                                                "with std::vector members) is not supported");
    }
    for (const CXXCtorInitializer *ci : ctor->inits())
      if (ci->isDelegatingInitializer() || ci->isBaseInitializer())
        fail(loc, "this constructor of " + spelled + " is not supported (delegating constructors of classes with "
                  "std::vector members)");
  }
  for (const FieldDecl *f : rd->fields()) {
    QualType ft = f->getType();
    ArrayInfo ai, inner;
    bool vec = arrayMember(f);
    if (vec) arrayInfo(ft, ai, SourceLocation());
    if (vec && arrayInfo(ai.elem, inner, SourceLocation(), 1))
      fail(f->getLocation(), "members of type '" + typeStr(ft) + "' (vectors of vectors) in a class built in the "
                             "function are not supported yet (use a flat std::vector and 'a[i * n + j]')");
    if (!vec && (ft->isPointerType() || ft->isReferenceType() || isViewStruct(ft) || ft->isArrayType()))
      fail(f->getLocation(), "member '" + f->getNameAsString() + "' of " + spelled + " is not supported in an object "
                             "with std::vector members built in the function (members of scalar or struct type are)");
    if (f->isMutable()) fail(loc, "type " + spelled + " has a mutable data member ('" + f->getNameAsString() + "')");
  }
  // The constructor's parameters and `this` (members initialised earlier
  // are read as `rows_`), bound in `inner`.
  auto state = std::make_shared<Env>(env);
  Binds pre;
  const VarDecl *tv = ctor ? thisVar(ctor) : nullptr;
  if (ctor) {
    for (unsigned a = 0; a < ce->getNumArgs() && a < ctor->getNumParams(); ++a) {
      const ParmVarDecl *p = ctor->getParamDecl(a);
      if (isViewStruct(p->getType()) && p->getType()->isReferenceType()) {
        // the copied object (`Mat(const Mat& other)`), or the moved one
        // (`Mat(Mat&& other)`, which it may empty: `other.data_ = nullptr`)
        QualType pt = p->getType().getNonReferenceType();
        const bool writes = !pt.isConstQualified();
        EffectScope es(*this, &pre);
        bindViewLeaves(p, pt, viewValues(ce->getArg(a), pt, env), *state, pre, ce->getArg(a));
        if (writes) viewReadOnly_.insert(p);
        else viewReadOnly_.erase(p);
        aliasNumberLeaves(env, p, pt, ce->getArg(a), writes, nullptr);
        continue;
      }
      const bool byValue = byValueArrayParam(p); // (a sink parameter `Poly(std::vector<double> c)`: copied)
      ir::TypeP pt = paramType(p, /*copied=*/true);
      EffectScope es(*this, &pre);
      if (pt->isArray()) {
        (*state)[p] = byValue ? copiedArgument(ce->getArg(a), p, env, pre) : lowerArrayRef(ce->getArg(a), env);
        continue;
      }
      std::string n = names_.fresh(p->getName().empty() ? "arg" : p->getNameAsString());
      pre.push_back({n, convert(lowerExpr(ce->getArg(a), env), pt)});
      (*state)[p] = ir::Var::make(n, pt);
    }
    viewThis_.insert(tv);
    viewLocals_.insert(tv);
    viewReadOnly_.insert(tv);
  }
  std::vector<const FieldDecl *> fields(rd->field_begin(), rd->field_end());
  auto memberLeaf = [&](const VarDecl *root, const FieldDecl *f) { // (root: vd, or `this` of the constructor)
    return leafVar(root, {int(f->getFieldIndex())}, f->getType().getUnqualifiedType());
  };
  // `this`'s number members name the local's only while the body runs (a
  // later object of the class reads its initialisers' values)
  auto forgetThis = [&] {
    if (tv)
      for (const FieldDecl *f : fields) refs_.erase(memberLeaf(tv, f));
  };
  forgetThis();
  auto initOf = [&](const FieldDecl *f) -> const Expr * {
    if (il) return f->getFieldIndex() < il->getNumInits() ? il->getInit(f->getFieldIndex()) : nullptr;
    if (const CXXCtorInitializer *ci = initializerOf(ctor, f)) return ci->getInit();
    return f->hasInClassInitializer() ? f->getInClassInitializer() : nullptr;
  };
  std::function<ir::Expr(size_t, Env &)> step = [&, state](size_t fi, Env &outer) -> ir::Expr {
    if (fi == fields.size()) {
      if (!body || bodyFrom == body->body_end()) {
        viewLocals_.insert(vd);
        viewReadOnly_.erase(vd);
        return k(outer);
      }
      // the rest of the constructor's body, on the new object: its number
      // members are the local's (written_members.cpp), a vector member
      // sized later in it is allocated at its sizing call
      Env inCtor = outer;
      for (const auto &[d, v] : *state) inCtor[d] = v; // (the parameters, `this`'s vectors)
      for (const FieldDecl *f : fields)
        if (!arrayMember(f)) {
          const VarDecl *leaf = memberLeaf(vd, f);
          refs_[memberLeaf(tv, f)] = RefTarget{leaf, leaf, nullptr, nullptr, {}, nullptr};
        }
      thisStack_.push_back(tv);
      std::function<ir::Expr(CompoundStmt::const_body_iterator, Env &)> segment =
          [&, tv](CompoundStmt::const_body_iterator from, Env &e) -> ir::Expr {
        auto to = from;
        while (to != body->body_end() && !deferredAt.count(*to)) ++to;
        Seq part{from, to, nullptr};
        return lowerSeq(&part, e, [&, to, tv](Env &e2) -> ir::Expr {
          if (to == body->body_end()) {
            thisStack_.pop_back();
            forgetThis();
            for (const ParmVarDecl *p : ctor->parameters()) e2.erase(p); // (the caller goes on without them)
            for (const FieldDecl *f : fields) e2.erase(memberLeaf(tv, f));
            viewLocals_.insert(vd);
            viewReadOnly_.erase(vd);
            ir::Expr r = k(e2);
            thisStack_.push_back(tv);
            return r;
          }
          const FieldDecl *f = deferredAt.at(*to);
          const CXXMemberCallExpr *call = deferred.at(f);
          ArrayInfo ai;
          arrayInfo(f->getType(), ai, f->getLocation());
          ir::TypeP et = typeOf(ai.elem, f->getLocation());
          LocalArrayInit start;
          Binds effs;
          {
            EffectScope es(*this, &effs);
            start.size = convert(lowerExpr(call->getArg(0), e2), ir::Type::i64());
            if (call->getNumArgs() == 2) start.fill = convert(lowerExpr(call->getArg(1), e2), et);
          }
          const VarDecl *leaf = memberLeaf(vd, f);
          const VarDecl *thisLeaf = memberLeaf(tv, f);
          return wrap(effs, bindLocalArray(leaf, et, false, start, e2, [&, to, leaf, thisLeaf](Env &e3) {
                        e3[thisLeaf] = e3.at(leaf);
                        return segment(std::next(to), e3);
                      }));
        });
      };
      ir::Expr built = segment(bodyFrom, inCtor);
      thisStack_.pop_back();
      return built;
    }
    const FieldDecl *f = fields[fi];
    const VarDecl *leaf = memberLeaf(vd, f);
    const VarDecl *thisLeaf = tv ? memberLeaf(tv, f) : nullptr;
    const Expr *x = initOf(f);
    if (x) x = stripObjectTemporaries(x);
    auto sized = sizedBy.find(f);
    Binds effs;
    // lowers an initializer (where `this` is the new object)
    auto lowering = [&](const std::function<void()> &fn) {
      if (tv) thisStack_.push_back(tv);
      struct Pop {
        std::vector<const VarDecl *> *s;
        ~Pop() { if (s) s->pop_back(); }
      } pop{tv ? &thisStack_ : nullptr};
      EffectScope es(*this, &effs);
      fn();
    };
    if (arrayMember(f) && deferred.count(f)) return step(fi + 1, outer); // (allocated in the body)
    if (arrayMember(f)) {
      ArrayInfo ai;
      arrayInfo(f->getType(), ai, f->getLocation());
      ir::TypeP et = typeOf(ai.elem, f->getLocation());
      LocalArrayInit start;
      lowering([&] {
        if (sized != sizedBy.end()) { // `data_.resize(n)`, `data_.assign(n, v)` in the body
          const CXXMemberCallExpr *call = sized->second;
          start.size = convert(lowerExpr(call->getArg(0), *state), ir::Type::i64());
          if (call->getNumArgs() == 2) start.fill = convert(lowerExpr(call->getArg(1), *state), et);
        } else if (!x || isa<ImplicitValueInitExpr>(x)) start.size = ir::Const::makeInt(0);
        else if (bufferInit(f, x, *state, start)) {} // `data_(nullptr)`, `data_(new T[n])` (owned_buffers.cpp)
        else if (const auto *vc = dyn_cast<CXXConstructExpr>(x)) localArrayConstructor(leaf, ai, false, ArrayInfo(), et, vc, *state, start);
        else if (const auto *vl = dyn_cast<InitListExpr>(x)) flattenInitList(vl, false, ArrayInfo(), et, "'" + typeStr(f->getType()) + "'", *state, start);
        else fail(x->getExprLoc(), "this initializer of the std::vector member '" + f->getNameAsString() + "' is not supported yet");
        if (!start.size) start.size = ir::Const::makeInt(int64_t(start.elems.size()));
      });
      return wrap(effs, bindLocalArray(leaf, et, false, start, outer, [&, fi, leaf, thisLeaf, state](Env &e2) {
                    if (thisLeaf) (*state)[thisLeaf] = e2.at(leaf);
                    return step(fi + 1, e2);
                  }));
    }
    ir::TypeP ftt = typeOf(f->getType().getUnqualifiedType(), f->getLocation());
    ir::Expr v;
    lowering([&] {
      bool zero = !x || isa<ImplicitValueInitExpr>(x) ||
                  (isa<CXXConstructExpr>(x) && cast<CXXConstructExpr>(x)->getNumArgs() == 0);
      v = zero ? ir::Const::zero(ftt) : convert(lowerExpr(x, *state), ftt);
    });
    std::string n = names_.fresh(vd->getNameAsString() + "_" + f->getNameAsString());
    effs.push_back({n, v});
    ir::Expr var = ir::Var::make(n, ftt);
    outer[leaf] = var;
    if (thisLeaf) (*state)[thisLeaf] = var;
    return wrap(effs, step(fi + 1, outer));
  };
  return wrap(pre, step(0, env));
}

// A copy or move constructor the class's author wrote (copies and moves
// run it).
bool Lowering::userCopy(const CXXConstructorDecl *c) {
  return c && c->isCopyOrMoveConstructor() && c->isUserProvided() && !c->isDeleted();
}

// A function returning by value an object whose vectors the split can hand
// over: a class or an aggregate with std::vector members and no pointers.
bool Lowering::returnsVectorObject(const FunctionDecl *fd) {
  if (!fd || fd->isInStdNamespace() || sm_.isInSystemHeader(sm_.getExpansionLoc(fd->getLocation()))) return false;
  QualType rt = fd->getReturnType();
  if (rt->isReferenceType() || rt->isPointerType() || rt->isDependentType() || !rt->isRecordType()) return false;
  if (!isViewStruct(rt) || !hasVectorMember(rt)) return false;
  for (const ViewLeaf &l : viewLeaves(rt))
    if (l.pointer) return false;
  return true;
}

// `e` is an object a hoisted call returned (its arrays are nobody else's).
bool Lowering::freshObject(const Expr *e) {
  if (!e) return false;
  e = stripObjectTemporaries(e);
  if (const auto *cc = dyn_cast<CXXConstructExpr>(e); cc && cc->getNumArgs() == 1 &&
                                                     cc->getConstructor()->isCopyOrMoveConstructor())
    e = stripObjectTemporaries(cc->getArg(0));
  const auto *c = dyn_cast<CallExpr>(e);
  return c && returnedObjects_.count(c);
}

// A copy's vector member: a new array of the source's length, filled from it.
ir::Expr Lowering::copyVectorLeaf(const VarDecl *leaf, const ir::Expr &from, Binds &binds) {
  SourceLocation loc = leaf->getLocation();
  ir::TypeP at = from->type;
  if (!at->isArray()) fail(loc, "this copy of '" + leaf->getNameAsString() + "' is not supported");
  std::string n = names_.fresh(leaf->getNameAsString());
  arrNames_[n] = leaf->getNameAsString();
  // (`c ? a : b`, chosen_objects.cpp: the chosen one's size and elements)
  const auto *chosen = from->as<ir::If>();
  auto pick = [&](const std::function<ir::Expr(const ir::Expr &)> &of) {
    return chosen ? ir::If::make(chosen->cond, of(chosen->thenE), of(chosen->elseE)) : of(from);
  };
  ir::Expr len = pick([](const ir::Expr &a) { return ir::Size::make(a); });
  binds.push_back({n, ir::NewArray::make(len, at->elem())});
  ir::Expr arr = ir::Var::make(n, ir::Type::array(at->elem()));
  binds.push_back({names_.fresh("_"), effectLoop(len, [&](const ir::Expr &j) {
                     return store(arr, j, pick([&](const ir::Expr &a) { return read(a, j, loc); }), ir::Store::Mode::Set,
                                  loc);
                   })});
  return arr;
}

// The values of the leaves of the object `root` (of type `t`).
std::vector<ir::Expr> Lowering::objectLeaves(const VarDecl *root, QualType t, Env &env) {
  std::vector<ir::Expr> out;
  for (const ViewLeaf &l : viewLeaves(t)) out.push_back(lookupVar(leafVar(root, l.path, l.type), env, root->getLocation()));
  return out;
}

// `B = A;`, `B = A * C;` of a class owning vectors: B's arrays would change
// length (an IR array is never rebound), refused.
void Lowering::checkObjectAssign(const Expr *e) {
  const auto *oc = dyn_cast<CXXOperatorCallExpr>(e);
  if (!oc || oc->getOperator() != OO_Equal || oc->getNumArgs() != 2) return;
  QualType t = oc->getArg(0)->getType().getNonReferenceType();
  if (!t->isRecordType() || !isViewStruct(t) || !hasVectorMember(t)) return;
  const auto *md = dyn_cast_or_null<CXXMethodDecl>(oc->getDirectCallee());
  if (md && md->isUserProvided()) return; // (a method: lowered into its caller)
  std::string spelled = typeStr(t.getUnqualifiedType());
  fail(oc->getOperatorLoc(), "assigning a whole object of '" + spelled + "' (a class with std::vector members) "
                             "inside an expression is not supported (assign it in a statement of its own: 'c = m;')");
}

// A marked function's parameter of a class owning vectors: the generated
// code reads its members by name, so they must be public.
void Lowering::checkVectorClassParam(const ParmVarDecl *pd) {
  const CXXRecordDecl *rd = pd->getType().getNonReferenceType()->getAsCXXRecordDecl();
  if (!rd || !ownsVector(rd)) return;
  for (const FieldDecl *f : rd->fields())
    if (f->getAccess() != AS_public)
      fail(pd->getLocation(), "a parameter of type '" + typeStr(pd->getType()) + "' of the marked function is not "
                              "supported: its data member '" + f->getNameAsString() + "' is not public (the gradient "
                              "reads and writes its members by name; make them public, or build the object inside "
                              "the function from arrays it is given)");
}

} // namespace unfad::frontend
