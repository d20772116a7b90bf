// References that can be written through: reference locals (`double& acc =
// out[i]`, `Vec3& q = pts[i]`, `double& r = s`, `double& m = p->x`) and the
// non-const reference parameters of helpers (`void axpy(double& y, double a,
// double x)`), which are inlined at each call.
//
// A reference is lowered to what it designates (RefTarget), fixed when it is
// bound, as in C++: a local variable or a field of one (reads and writes of
// the reference are that variable's, a new SSA value on each write), or an
// element of an array, or a field of one (reads and writes are Index and
// Store of that element, at the index computed once at the binding).
// Nothing needs a copy, and two references to one object see each other's
// writes, because every access goes to the variable or the memory itself.
//
// A helper with a non-const reference parameter is lowered into its caller
// (lowerInlinedCall): its reference parameters are bound to the arguments
// like reference locals, its other parameters to their values, and its body
// is lowered as an expression whose value is (result, the caller variables
// the references name, as the body leaves them); the caller takes their new
// values from it. The helper's stores into the caller's arrays are the
// caller's own.
#include "lowering.h"

#include <clang/AST/DeclCXX.h>

#include <algorithm>
#include <utility>

namespace unfad::frontend {

using namespace clang;

namespace {

bool atomic(const ir::Expr &e) { return e->is<ir::Var>() || e->is<ir::Const>(); }

} // namespace

// A parameter of reference to a non-const scalar or struct (a std::vector<double>&
// or a pointer is an array parameter, not one of these).
bool Lowering::outReferenceParam(const ParmVarDecl *p) {
  QualType t = p->getType();
  if (isReferenceWrapper(t)) // a std::reference_wrapper: a reference (reference_wrappers.cpp)
    return true;
  if (!t->isLValueReferenceType() || t.getNonReferenceType().isConstQualified()) return false;
  ArrayInfo ai;
  return !arrayInfo(t.getNonReferenceType(), ai, SourceLocation()) && !t.getNonReferenceType()->isPointerType() &&
         !isViewStruct(t); // a struct of views is given by value (view_structs.cpp)
}

bool Lowering::takesOutReference(const FunctionDecl *fd) {
  const FunctionDecl *def = fd->getDefinition();
  if (!def || !def->hasBody() || sm_.isInSystemHeader(sm_.getExpansionLoc(def->getLocation()))) return false;
  return std::any_of(def->param_begin(), def->param_end(), [&](const ParmVarDecl *p) { return outReferenceParam(p); });
}

const Lowering::RefTarget *Lowering::refOf(const VarDecl *vd) const {
  auto it = refs_.find(vd);
  return it == refs_.end() ? nullptr : &it->second;
}

// The C++ variable whose value or memory `vd` designates (itself when it
// is no reference).
const VarDecl *Lowering::refRoot(const VarDecl *vd) const {
  const RefTarget *t = refOf(vd);
  return t && t->root ? t->root : vd;
}

// The caller's variables a write through `t` may assign (both objects of a
// choice), added to `roots` once each.
void Lowering::addRoots(const RefTarget &t, std::vector<const VarDecl *> &roots) {
  if (t.choice) {
    addRoots(t.choice->then, roots);
    addRoots(t.choice->otherwise, roots);
  } else if (t.var && std::find(roots.begin(), roots.end(), t.var) == roots.end()) {
    roots.push_back(t.var);
  }
}

ir::Expr Lowering::readRef(const RefTarget &t, Env &env, SourceLocation loc) {
  if (t.choice) // (returned_references.cpp)
    return ir::If::make(t.choice->cond, readRef(t.choice->then, env, loc), readRef(t.choice->otherwise, env, loc));
  ir::Expr v = t.var ? lookupVar(t.var, env, loc) : read(t.array, t.index, loc);
  return readPath(v, t.path);
}

// What the lvalue `e` designates; its index (and a view's offset) bound to
// lets in `binds`, so that later changes of the variables it is computed
// from do not move it. False when `e` is nothing a reference can be bound to.
bool Lowering::lvalueTarget(const Expr *e, Env &env, RefTarget &t, Binds &binds) {
  e = stripNoOps(e);
  if (const Expr *u = unwrapReference(e)) return lvalueTarget(u, env, t, binds); // std::ref(x), w.get()
  if (bool ok = false; memberElementTarget(e, env, t, binds, ok)) return ok; // member_arrays.cpp
  if (const auto *c = dyn_cast<ImplicitCastExpr>(e); c && isBaseCast(c)) { // the base object (class_layout.cpp)
    if (!lvalueTarget(c->getSubExpr(), env, t, binds)) return false;
    t.path.insert(t.path.end(), c->path_size(), 0);
    return true;
  }
  if (const VarDecl *self = thisDecl(e) ? thisDecl(e) : thisDecl(e, true)) { // a method's object (classes.cpp)
    if (const RefTarget *r = refOf(self)) {
      t = *r;
      return true;
    }
    if (!env.count(self)) return false;
    t = RefTarget{self, self, nullptr, nullptr, {}, nullptr};
    return true;
  }
  if (const auto *d = dyn_cast<DeclRefExpr>(e)) {
    if (const auto *b = dyn_cast<BindingDecl>(d->getDecl()); b && b->getBinding()) // a structured binding: what it names
      return lvalueTarget(b->getBinding(), env, t, binds);
    const auto *vd = dyn_cast<VarDecl>(d->getDecl());
    if (!vd) return false;
    if (const RefTarget *r = refOf(vd)) {
      t = *r;
      return true;
    }
    auto it = env.find(vd);
    if (vd->getType()->isReferenceType() || !vd->hasLocalStorage() || it == env.end() || ptrBase_.count(vd) ||
        flatStride_.count(vd) || (it->second->type->isArray() && !cells_.count(vd)))
      return false;
    t = RefTarget{vd, vd, nullptr, nullptr, {}, nullptr}; // (a cell too: address_taken.cpp)
    return true;
  }
  if (unsigned index = 0; const Expr *obj = tupleGet(e, index)) { // std::get<I>(t) (pairs_tuples.cpp)
    if (!lvalueTarget(obj, env, t, binds)) return false;
    t.path.push_back(int(index));
    return true;
  }
  if (const auto *m = dyn_cast<MemberExpr>(e)) {
    const auto *f = dyn_cast<FieldDecl>(m->getMemberDecl());
    if (!f) return false;
    std::vector<int> rest;
    if (const VarDecl *leaf = f->getType()->isArithmeticType() ? viewLeafVar(m, rest, false) : nullptr;
        leaf && env.count(leaf) && !env.at(leaf)->type->isArray()) {
      t = RefTarget{leaf, leaf, nullptr, nullptr, rest, nullptr}; // a number member of a split object (written_members.cpp)
      return true;
    }
    int up = 0;
    if (m->isArrow() && thisDeclUp(m->getBase(), up)) { // this->f
      if (!lvalueTarget(m->getBase(), env, t, binds)) return false;
    } else if (m->isArrow()) { // p->f: a field of the element *p
      if (!elementTarget(lowerArrayRef(m->getBase(), env), ir::Const::makeInt(0), m->getBase(), t, binds)) return false;
    } else if (!lvalueTarget(m->getBase(), env, t, binds)) {
      return false;
    }
    t.path.push_back(fieldIndex(f));
    return true;
  }
  ir::Expr a, i;
  if (elementRef(e, env, a, i)) return elementTarget(a, i, e, t, binds);
  if (isa<ConditionalOperator>(e)) return conditionalTarget(e, env, t, binds); // c ? v[i] : v[j]
  return returnedReference(e, env, t, binds); // at(v, i), g.at(i, j) (returned_references.cpp)
}

// The element a[i] (`e` in the source) as a target.
bool Lowering::elementTarget(ir::Expr a, const ir::Expr &i, const Expr *e, RefTarget &t, Binds &binds) {
  if (a->type->elem()->isArray()) return false; // a row: arrays are aliased, not designated
  auto bind = [&](const ir::Expr &x, const std::string &hint) {
    if (atomic(x)) return x;
    std::string n = names_.fresh(hint);
    binds.push_back({n, x});
    return ir::Var::make(n, x->type);
  };
  if (const auto *v = a->as<ir::View>(); v && !atomic(v->offset)) a = ir::View::make(v->array, bind(v->offset, "offset"));
  t = RefTarget{nullptr, nullptr, a, bind(i, "index"), {}, nullptr};
  const Expr *base = e;
  while (true) { // the array variable, for the sequencing checks
    base = stripNoOps(base);
    if (const auto *s = dyn_cast<ArraySubscriptExpr>(base)) base = s->getBase();
    else if (const auto *oc = dyn_cast<CXXOperatorCallExpr>(base); oc && oc->getNumArgs() >= 1) base = oc->getArg(0);
    else if (const auto *u = dyn_cast<UnaryOperator>(base); u && u->getOpcode() == UO_Deref) base = u->getSubExpr();
    else if (const auto *mc = dyn_cast<CXXMemberCallExpr>(base)) base = mc->getImplicitObjectArgument();
    else if (const auto *c = dyn_cast<ImplicitCastExpr>(base)) base = c->getSubExpr();
    else if (const auto *b = dyn_cast<BinaryOperator>(base); b && b->isAdditiveOp())
      base = b->getLHS()->getType()->isPointerType() ? b->getLHS() : b->getRHS();
    else break;
  }
  if (const auto *d = dyn_cast<DeclRefExpr>(base))
    if (const auto *vd = dyn_cast<VarDecl>(d->getDecl())) t.root = refRoot(vd);
  return true;
}

// `T& r = init;` (not a const reference that is read as a copy, see
// constReferenceLocal).
ir::Expr Lowering::lowerReferenceLocal(const VarDecl *vd, Env &env, const Tail &k) {
  QualType pt = vd->getType().getNonReferenceType();
  const Expr *init = vd->getInit();
  SourceLocation loc = vd->getLocation();
  if (!init) fail(loc, "a reference must be initialised");
  if (pt->isPointerType())
    fail(loc, "references to pointers are not supported ('" + vd->getNameAsString() + "'; use the pointer itself)");
  if (ArrayInfo ai; arrayInfo(pt, ai, loc)) { // an array, or a row of one: an alias
    bindArrayAlias(vd, init, env);
    return k(env);
  }
  if (!vd->getType()->isLValueReferenceType())
    fail(loc, "rvalue reference variables are not supported ('" + vd->getNameAsString() + "')");
  Binds binds;
  RefTarget t;
  if (!lvalueTarget(init, env, t, binds) && !choiceTarget(init, env, t, binds)) {
    const Expr *x = stripNoOps(init);
    if (isa<CallExpr>(x))
      fail(init->getExprLoc(), "a reference to what a function returns is not supported ('" + vd->getNameAsString() +
                                   "'; only references to local variables, to array elements and to their fields are)");
    fail(init->getExprLoc(), "this reference is not supported ('" + vd->getNameAsString() +
                                 "'; only references to local variables, to array elements and to their fields are)");
  }
  refs_[vd] = t;
  return wrap(binds, k(env));
}

// A call of a helper with a non-const reference parameter, lowered into the
// caller (see the file comment). Its effects and the caller's variables'
// new values are lets of the enclosing statement.
ir::Expr Lowering::lowerInlinedCall(const CallExpr *ce, const FunctionDecl *fd, Env &env) {
  return inlineCall(fd, std::vector<const Expr *>(ce->arg_begin(), ce->arg_end()), ce->getExprLoc(), env);
}

// The body of `fd` lowered into the caller, given its arguments (and, for a
// method or a constructor, its object: classes.cpp).
ir::Expr Lowering::inlineCall(const FunctionDecl *fd, const std::vector<const Expr *> &args, SourceLocation loc,
                              Env &env, const ThisBinding *self) {
  const FunctionDecl *def = fd->getDefinition();
  std::string fname = fd->getNameAsString();
  bool asReference = std::exchange(returnsReference_, false); // (returned_references.cpp)
  auto noEffectsHere = [&] {
    fail(loc, (takesOutReference(fd) ? std::string("a call that writes through a reference parameter")
                                     : "a call of '" + fname + "' (which is lowered into its caller)") +
                  " inside " +
                  (noEffectsWhere_.empty() ? std::string("this expression") : noEffectsWhere_) +
                  " is not supported (use a separate statement)");
  };
  // Where no lets can go before the statement (a loop condition, an operand
  // of ?: or &&), a method or a constructor that writes no memory and none
  // of the caller's variables is an expression (see the end).
  if (!effects_ && !self) noEffectsHere();
  Binds local;
  Binds *sink = effects_ ? effects_ : &local;
  if (std::find(inlining_.begin(), inlining_.end(), def) != inlining_.end())
    fail(loc, std::string("recursive calls of a function with ") +
                  (takesOutReference(fd)      ? "a non-const reference parameter"
                   : resizesVectorParam(def) ? "a std::vector parameter it resizes"
                                             : "a struct-of-pointers parameter or a pointer result") +
                  " are not supported ('" + fname + "')");
  if (fd->isVariadic()) fail(loc, "calls to variadic functions are not supported ('" + fname + "')");
  if (args.size() != def->getNumParams()) fail(loc, "call with a wrong number of arguments");
  bool returnsThis = self && self->method && def->getReturnType()->isReferenceType() &&
                     def->getReturnType().getNonReferenceType()->getAsCXXRecordDecl() == self->method->getParent();
  if (def->getReturnType()->isReferenceType() && !returnsThis && !returnsReadableReference(def))
    fail(loc, "calls to functions returning references to arrays or pointers are not supported ('" + fname + "')");
  checkFunction(def);
  Env inner = env;
  Binds binds;
  std::vector<const VarDecl *> roots; // the caller's variables it may assign
  bindInlinedParams(def, args, env, inner, binds, roots);
  if (self) bindThis(*self, env, inner, binds, roots);
  QualType drt = def->getReturnType().getNonReferenceType(); // (a reference: read as a value)
  Inlined in;
  in.returnsThis = returnsThis;
  if (returnsThis) {
    in.result = ir::Type::unit();
  } else if (asReference) { // what its returns designate (returned_references.cpp)
    in.reference = true;
    in.result = ir::Type::i64();
    in.callerArrays = visibleArrays(env);
  } else if (ArrayInfo ai; drt->isPointerType() && arrayInfo(drt, ai, def->getLocation())) {
    in.pointer = true; // its value is an offset into one of the caller's arrays (lowerPointerReturn)
    in.result = ir::Type::i64();
    in.callerArrays = visibleArrays(env);
  } else {
    in.result = drt->isVoidType() ? ir::Type::unit() : typeOf(drt.getUnqualifiedType(), def->getLocation());
  }
  in.roots = roots;
  std::vector<ir::TypeP> ts{in.result};
  for (const VarDecl *r : roots) ts.push_back(env.at(r)->type);
  ir::TypeP packed = ir::Type::tuple(ts);
  ir::Expr body;
  {
    InlineScope scope(*this, def, &in, packed);
    struct ThisScope { // the object `this` names in the body
      std::vector<const VarDecl *> &stack;
      bool pushed;
      ~ThisScope() { if (pushed) stack.pop_back(); }
    } thisScope{thisStack_, self != nullptr};
    if (self) thisStack_.push_back(thisVar(self->method));
    const auto *cs = cast<CompoundStmt>(def->getBody());
    Seq s{cs->body_begin(), cs->body_end(), nullptr};
    SourceLocation endLoc = cs->getRBracLoc();
    Tail end = [this, endLoc, &in, cs](Env &e) -> ir::Expr {
      if (in.result->isUnit()) return packInlined(ir::Tuple::make({}), e);
      if (alwaysReturns(cs, ctx_)) return packInlined(ir::Const::zero(in.result), e); // a dead path
      fail(endLoc, "control reaches the end of the function without a 'return'");
    };
    if (self && self->construct) { // the member initialisers first (classes.cpp)
      Binds init;
      const VarDecl *obj = thisVar(self->method);
      {
        EffectScope es(*this, &init);
        init.push_back({names_.fresh(obj->getName().str()), constructedObject(cast<CXXConstructorDecl>(def), obj, inner)});
      }
      inner[obj] = ir::Var::make(init.back().first, init.back().second->type);
      body = wrap(init, lowerSeq(&s, inner, end));
    } else {
      body = lowerSeq(&s, inner, end);
    }
  }
  for (const ParmVarDecl *p : def->parameters()) growLen_.erase(p); // (bound afresh at every inlined call)
  std::string rn = names_.fresh(fname + "_result");
  sink->push_back({rn, wrap(binds, body)});
  if (!effects_) { // only its own new object may be assigned
    bool ownObject = self && self->construct && roots.size() == 1 && roots[0] == thisVar(self->method);
    if (ir::mayWrite(local.back().second) || (!roots.empty() && !ownObject)) noEffectsHere();
  }
  ir::Expr rv = ir::Var::make(rn, packed);
  for (size_t k = 0; k < roots.size(); ++k) {
    std::string n = names_.fresh(roots[k]->getNameAsString());
    ir::Expr v = ir::Proj::make(rv, int(k) + 1);
    sink->push_back({n, v});
    env[roots[k]] = ir::Var::make(n, v->type);
  }
  if (self && self->construct) return wrap(local, env.at(thisVar(self->method))); // the new object
  if (returnsThis && viewThis_.count(thisVar(self->method))) // (a split object is no value: its calls chain, written_members.cpp)
    return wrap(local, ir::Tuple::make({}));
  if (returnsThis) return wrap(local, lookupVar(thisVar(self->method), env, loc));
  if (in.reference) {
    if (!in.referenceSet) fail(loc, "'" + fname + "' never returns");
    returnedTarget_ = RefTarget{in.var, in.var, in.var ? nullptr : in.base, nullptr, in.path, nullptr};
  }
  if (!effects_) return wrap(local, ir::Proj::make(rv, 0));
  if (in.pointer) {
    if (!in.base) fail(loc, "'" + fname + "' never returns a pointer into an array");
    return ir::View::make(in.base, ir::Proj::make(rv, 0));
  }
  return ir::Proj::make(rv, 0);
}

// The parameters of an inlined helper bound to the caller's arguments: a
// value is a let, an array the caller's buffer, a reference parameter the
// caller's variable (added to `roots`), a callable the caller's closure.
void Lowering::bindInlinedParams(const FunctionDecl *def, const std::vector<const Expr *> &args, Env &env, Env &inner,
                                 Binds &binds, std::vector<const VarDecl *> &roots) {
  std::string fname = def->getNameAsString();
  for (unsigned k = 0; k < args.size(); ++k) {
    const ParmVarDecl *p = def->getParamDecl(k);
    const Expr *arg = args[k];
    if (bindCallableParam(p, arg, env, binds, roots)) continue; // a lambda or a function (lambdas.cpp)
    if (bindPassiveParam(p, arg, env, binds)) continue;           // data->model (passive_data.cpp)
    if (bindFixedTableParam(p, arg, env, inner, binds)) continue;  // a Mat3 (returned_arrays.cpp)
    if (bindObjectTableName(p, arg, &roots)) continue; // a vector of objects owning arrays (object_tables.cpp)
    if (viewPointerParam(p)) { // `Mat* m` given `&obj` (or such a pointer): like `Mat& m` (view_structs.cpp)
      const Expr *obj = arg->IgnoreParenImpCasts();
      if (const auto *u = dyn_cast<UnaryOperator>(obj); u && u->getOpcode() == UO_AddrOf) obj = u->getSubExpr();
      else if (!viewPointerDeref(obj))
        fail(arg->getExprLoc(), "'" + fname + "' takes a pointer to one object: pass the address of an object ('&m')");
      QualType pt = p->getType()->getPointeeType();
      viewPointers_.insert(p);
      bindViewLeaves(p, pt, viewValues(obj, pt, env), inner, binds, obj);
      if (!pt.isConstQualified()) viewReadOnly_.insert(p);
      else viewReadOnly_.erase(p);
      aliasNumberLeaves(env, p, pt, obj, !pt.isConstQualified() && writesNumberMembers(def), &roots); // (written_members.cpp)
      continue;
    }
    if (isViewStruct(p->getType())) { // its members are bound to the argument's
      QualType pt = p->getType().getNonReferenceType();
      bindViewLeaves(p, pt, viewValues(arg, pt, env), inner, binds, arg);
      // (a temporary given to `T&&`, a move's source: its number members
      // are the callee's to change, nobody reads them after)
      if (p->getType()->isReferenceType() && !pt.isConstQualified() &&
          !(p->getType()->isRValueReferenceType() && freshObject(arg)))
        viewReadOnly_.insert(p);
      else viewReadOnly_.erase(p);
      if (p->getType()->isReferenceType()) aliasNumberLeaves(env, p, pt, arg, !pt.isConstQualified() && writesNumberMembers(def), &roots);
      continue;
    }
    if (outReferenceParam(p)) {
      RefTarget t;
      if (!lvalueTarget(arg, env, t, binds))
        fail(arg->getExprLoc(), "this argument of '" + fname + "' cannot be passed by reference (only local variables, "
                                "array elements and their fields can)");
      refs_[p] = t;
      addRoots(t, roots);
      continue;
    }
    if (byValueArrayParam(p)) { // the helper's own copy
      inner[p] = copiedArgument(arg, p, env, binds);
      continue;
    }
    ir::TypeP pt = paramType(p);
    if (pt->isArray()) {
      ir::Expr a = lowerArrayRef(arg, env);
      if (!ir::sameType(a->type, pt))
        fail(arg->getExprLoc(), "array of " + ir::str(a->type->elem()) + " passed as an array of " + ir::str(pt->elem()));
      if (movesPointer(def, p)) bindMovedPointer(p, a, inner, binds); // `x++` on the parameter (pointers.cpp)
      else inner[p] = a;
      if (ir::Expr len = raggedRowLength(arg, env)) flatRowLength_[p] = len; // (ragged_tables.cpp)
      else if (ir::Expr len = flatRowLength(arg)) flatRowLength_[p] = len; // a row of a table held flat
      if (const VarDecl *len = growingLength(arg)) growLen_[p] = len; // its size() is the vector's length
      continue;
    }
    ir::Expr v = convert(lowerExpr(arg, env), pt);
    if (v->is<ir::Const>() && pt->isInt() && !addressTaken(p)) { // a constant index stays one (member_arrays.cpp)
      inner[p] = v;
      continue;
    }
    std::string n = names_.fresh(p->getName().empty() ? "arg" : p->getNameAsString());
    binds.push_back({n, v});
    inner[p] = ir::Var::make(n, pt);
    if (addressTaken(p)) bindCell(p, inner[p], inner, binds); // (address_taken.cpp)
  }
  noteMovedReseats(def, inner); // (`x = y` on a parameter: reseated_pointers.cpp)
}

// What an inlined helper's `return v` evaluates to: v and the caller's
// variables it may have assigned.
ir::Expr Lowering::packInlined(const ir::Expr &v, Env &env) {
  std::vector<ir::Expr> es{v};
  for (const VarDecl *r : inline_->roots) es.push_back(env.at(r));
  return ir::Tuple::make(es);
}

Lowering::InlineScope::InlineScope(Lowering &low, const FunctionDecl *def, const Inlined *in, ir::TypeP packed)
    : l(low), savedInline(low.inline_), savedResult(low.result_), savedLoops(low.loops_),
      savedOnReturn(low.onReturn_) {
  l.inlining_.push_back(def);
  l.inline_ = in;
  l.result_ = std::move(packed);
  l.loops_.clear();
  l.onReturn_ = nullptr;
}

Lowering::InlineScope::~InlineScope() {
  l.inlining_.pop_back();
  l.inline_ = savedInline;
  l.result_ = savedResult;
  l.loops_ = savedLoops;
  l.onReturn_ = savedOnReturn;
}

} // namespace unfad::frontend
