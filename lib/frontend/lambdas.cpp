// Lambdas and other callables, lowered into their callers.
//
// A lambda stored in a local (`auto sq = [](double v) { return v * v; };`)
// is a name for its body: nothing of the closure object exists in the IR.
// Each call `sq(x)` lowers the call operator's body into the caller, as
// references.cpp lowers a helper with a non-const reference parameter:
// - a capture by reference designates the caller's variable (Clang's body
//   names the captured VarDecl itself), so a write in the body is a write of
//   the caller's variable, given back by the call like a reference
//   argument's; the adjoint of a captured variable thereby sums over calls;
// - a capture by value (`[=]`, `[x]`) and an init-capture (`[s = 2 * x]`)
//   is the value at the lambda's creation (an SSA value bound there); an
//   array captured by value must be const (then it is the same buffer) or a
//   pointer (a view of the same memory);
// - a parameter that is a non-const reference designates the argument, as a
//   reference parameter of a lowered helper does.
// A function template given a callable (`integrate(f, a, b, n)` with a
// lambda, a local holding one, or a function's name) is lowered into its
// caller too, its callable parameter bound to the argument's closure (or
// function), so `f(x)` in its body is lowered the same way. The standard
// algorithms taking callables are in callable_algorithms.cpp.
// Refused at the construct: mutable lambdas, lambdas capturing `this`,
// lambdas returned by functions, copied into other objects or used as
// values (std::function), recursion through lambdas.
#include "lowering.h"

#include <clang/AST/DeclCXX.h>
#include <clang/AST/DeclTemplate.h>

namespace unfad::frontend {

using namespace clang;

// A callable argument without the wrappers around the object it names
// (temporaries, copies, `&f`).
const Expr *stripCallable(const Expr *e) {
  while (true) {
    e = e->IgnoreParenImpCasts();
    if (const auto *m = dyn_cast<MaterializeTemporaryExpr>(e)) e = m->getSubExpr();
    else if (const auto *b = dyn_cast<CXXBindTemporaryExpr>(e)) e = b->getSubExpr();
    else if (const auto *c = dyn_cast<ExprWithCleanups>(e)) e = c->getSubExpr();
    else if (const auto *c = dyn_cast<CXXConstructExpr>(e); c && c->getNumArgs() == 1 &&
                                                               c->getConstructor()->isCopyOrMoveConstructor())
      e = c->getArg(0);
    else if (const auto *u = dyn_cast<UnaryOperator>(e); u && u->getOpcode() == UO_AddrOf) e = u->getSubExpr();
    else return e;
  }
}

namespace {

const VarDecl *capturedVar(const LambdaCapture &c) {
  return c.capturesVariable() ? dyn_cast<VarDecl>(c.getCapturedVar()) : nullptr;
}

} // namespace

const CXXRecordDecl *Lowering::closureRecord(QualType t) {
  const auto *rd = t.getNonReferenceType()->getAsCXXRecordDecl();
  return rd && rd->isLambda() ? rd : nullptr;
}

// A functor: a class of plain values with a call operator.
const CXXRecordDecl *Lowering::functorRecord(QualType t) {
  const auto *rd = t.getNonReferenceType()->getAsCXXRecordDecl();
  if (!rd || rd->isLambda() || !rd->hasDefinition() || rd->isInStdNamespace()) return nullptr;
  if (ownsVector(rd)) return nullptr; // a Matrix's `operator()` is an accessor (vector_members.cpp)
  for (const CXXMethodDecl *m : rd->methods())
    if (m->getOverloadedOperator() == OO_Call && !m->isStatic()) return rd;
  return nullptr;
}

// The function a parameter of function pointer (or reference) type was given.
const FunctionDecl *Lowering::boundFunction(const CallExpr *ce) {
  const auto *d = dyn_cast<DeclRefExpr>(ce->getCallee()->IgnoreParenImpCasts());
  const auto *p = d ? dyn_cast<VarDecl>(d->getDecl()) : nullptr;
  auto it = p ? functions_.find(p) : functions_.end();
  return it == functions_.end() ? nullptr : it->second;
}

// The closure of a lambda at its creation: its by-value captures' current
// values (bound to lets in `binds`).
Lowering::Closure Lowering::makeClosure(const LambdaExpr *le, const std::string &name, Env &env, Binds &binds) {
  const CXXRecordDecl *rd = le->getLambdaClass();
  if (le->isMutable()) fail(le->getBeginLoc(), "mutable lambdas are not supported");
  Closure c;
  c.rd = rd;
  c.name = name;
  for (const LambdaCapture &cap : le->captures()) {
    SourceLocation loc = cap.getLocation();
    if (cap.capturesThis()) { // the method's object, by reference (its members as the method has them)
      if (cap.getCaptureKind() == LCK_StarThis) fail(loc, "capturing '*this' by copy is not supported (capture 'this')");
      if (thisStack_.empty()) fail(loc, "this capture of 'this' is not supported");
      c.capturedThis = lambdaThis_[rd] = thisStack_.back();
      continue;
    }
    const VarDecl *v = capturedVar(cap);
    if (!v) fail(loc, "this capture is not supported");
    std::string vn = v->getNameAsString();
    if (growLen_.count(v))
      fail(loc, "capturing the growing std::vector '" + vn + "' is not supported (pass its data and length)");
    if (isViewStruct(v->getType()) || viewArrays_.count(v))
      fail(loc, "capturing '" + vn + "', which holds pointers into arrays, is not supported");
    if (v->isInitCapture()) {
      if (cap.getCaptureKind() != LCK_ByCopy) fail(loc, "init-captures by reference are not supported");
      ArrayInfo ai;
      if (closureRecord(v->getType()) || arrayInfo(v->getType(), ai, SourceLocation()))
        fail(loc, "this init-capture is not supported (only values: '[s = 2 * x]')");
      ir::TypeP t = typeOf(v->getType().getUnqualifiedType(), loc);
      std::string n = names_.fresh(vn);
      binds.push_back({n, convert(lowerExpr(v->getInit(), env), t)});
      c.values[v] = ir::Var::make(n, t);
      continue;
    }
    if (cap.getCaptureKind() != LCK_ByCopy) continue; // by reference: the caller's variable itself
    if (closureRecord(v->getType())) continue;         // a lambda: its closure is the same (closures_)
    if (refOf(v)) fail(loc, "capturing the reference '" + vn + "' by value is not supported (capture it by reference)");
    ArrayInfo ai;
    if (arrayInfo(v->getType(), ai, SourceLocation())) {
      bool constant = v->getType().getNonReferenceType().isConstQualified() || ai.elem.isConstQualified();
      if (ai.kind != ArrayInfo::Pointer && !constant)
        fail(loc, "capturing the array '" + vn + "' by value (a copy) is not supported (capture it by reference: '[&" +
                      vn + "]')");
      continue; // the same buffer (a pointer is a view of the same memory)
    }
    if (ptrBase_.count(v)) { // a pointer local: its offset as it is now
      c.values[v] = env.at(v);
      continue;
    }
    ir::Expr cur = lookupVar(v, env, loc);
    if (!cur->is<ir::Var>() && !cur->is<ir::Const>()) {
      std::string n = names_.fresh(vn);
      binds.push_back({n, cur});
      cur = ir::Var::make(n, cur->type);
    }
    c.values[v] = cur;
  }
  return c;
}

// `auto f = [...](...) { ... };` (or a copy of another such local).
ir::Expr Lowering::lowerLambdaLocal(const VarDecl *vd, Env &env, const Tail &k) {
  const Expr *init = vd->getInit() ? stripCallable(vd->getInit()) : nullptr;
  Binds binds;
  if (const auto *le = dyn_cast_or_null<LambdaExpr>(init)) {
    closures_[vd] = makeClosure(le, vd->getNameAsString(), env, binds);
    return wrap(binds, k(env));
  }
  if (const auto *d = dyn_cast_or_null<DeclRefExpr>(init)) {
    const auto *src = dyn_cast<VarDecl>(d->getDecl());
    if (src && closures_.count(src)) {
      closures_[vd] = closures_.at(src);
      return wrap(binds, k(env));
    }
  }
  if (init && isa<CallExpr>(init))
    fail(init->getExprLoc(), "lambdas returned by functions are not supported ('" + vd->getNameAsString() + "')");
  fail(vd->getLocation(), "this lambda variable is not supported ('" + vd->getNameAsString() + "')");
}

// The callable `e` designates: a lambda, a local (or parameter) holding one.
bool Lowering::closureOf(const Expr *e, Env &env, Binds &binds, Closure &out) {
  const Expr *x = stripCallable(e);
  if (const auto *le = dyn_cast<LambdaExpr>(x)) {
    out = makeClosure(le, "lambda", env, binds);
    return true;
  }
  if (const auto *d = dyn_cast<DeclRefExpr>(x))
    if (const auto *vd = dyn_cast<VarDecl>(d->getDecl()); vd && closures_.count(vd)) {
      out = closures_.at(vd);
      return true;
    }
  if (const CXXRecordDecl *rd = functorRecord(e->getType())) { // a functor: its value
    ir::Expr v = lowerExpr(x, env);
    if (!v->type->isStruct()) fail(e->getExprLoc(), "this function object is not supported");
    std::string n = names_.fresh(rd->getName().empty() ? "functor" : rd->getName().lower());
    binds.push_back({n, v});
    out.rd = rd;
    out.name = n;
    out.self = ir::Var::make(n, v->type);
    return true;
  }
  return false;
}

// `f(args)` on a closure: null when the object is no lambda unfad knows of.
ir::Expr Lowering::lowerClosureCall(const CXXOperatorCallExpr *oc, Env &env) {
  if (oc->getOperator() != OO_Call) return nullptr;
  if (!closureRecord(oc->getArg(0)->getType())) { // a functor given to an inlined template
    const auto *d = dyn_cast<DeclRefExpr>(oc->getArg(0)->IgnoreParenImpCasts());
    const auto *v = d ? dyn_cast<VarDecl>(d->getDecl()) : nullptr;
    if (!v || !closures_.count(v) || !closures_.at(v).self) return nullptr;
  }
  SourceLocation loc = oc->getExprLoc();
  const auto *op = dyn_cast_or_null<FunctionDecl>(oc->getCalleeDecl());
  Binds binds;
  Closure c;
  if (!op || !closureOf(oc->getArg(0), env, binds, c))
    fail(loc, "this call of a lambda is not supported (call a lambda stored in a local, or a template's callable "
              "parameter)");
  if (!binds.empty() && !effects_) fail(loc, "a lambda created and called in this expression is not supported");
  if (effects_) effects_->insert(effects_->end(), binds.begin(), binds.end());
  std::vector<CallArg> args;
  for (unsigned k = 1; k < oc->getNumArgs(); ++k) args.push_back(CallArg{oc->getArg(k)});
  return callClosure(c, op, args, env, loc);
}

// The arguments of a callable's call, one per parameter of `op`, bound in
// `inner`; `roots` gets the caller's variables a reference parameter names.
void Lowering::bindCallArgs(const FunctionDecl *op, const std::vector<CallArg> &args, Env &env, Env &inner,
                            Binds &binds, std::vector<const VarDecl *> &roots, SourceLocation loc) {
  if (op->getNumParams() != args.size()) fail(loc, "call with a wrong number of arguments");
  for (unsigned k = 0; k < args.size(); ++k) {
    const ParmVarDecl *p = op->getParamDecl(k);
    const CallArg &a = args[k];
    SourceLocation aloc = a.expr ? a.expr->getExprLoc() : loc;
    if (isViewStruct(p->getType())) fail(aloc, "structs of pointers as parameters of lambdas are not supported");
    if (closureRecord(p->getType()))
      fail(aloc, "a lambda given to a lambda is not supported (recursion through lambdas, callables as values)");
    if (outReferenceParam(p)) {
      RefTarget t;
      if (a.expr) {
        if (!lvalueTarget(a.expr, env, t, binds))
          fail(aloc, "this argument cannot be passed by reference (only local variables, array elements and their fields "
                     "can)");
      } else if (a.array) {
        t.array = a.array, t.index = a.index;
      } else {
        fail(aloc, "a value passed to a reference parameter");
      }
      refs_[p] = t;
      addRoots(t, roots);
      continue;
    }
    const bool byValue = byValueArrayParam(p) && a.expr; // `[](std::vector<double> v)`: the lambda's own copy
    ir::TypeP pt = paramType(p, byValue);
    if (byValue) {
      inner[p] = copiedArgument(a.expr, p, env, binds);
      continue;
    }
    if (pt->isArray()) {
      if (!a.expr) fail(aloc, "an element passed as an array");
      ir::Expr arr = lowerArrayRef(a.expr, env);
      if (!ir::sameType(arr->type, pt))
        fail(aloc, "array of " + ir::str(arr->type->elem()) + " passed as an array of " + ir::str(pt->elem()));
      inner[p] = arr;
      continue;
    }
    ir::Expr v = a.expr ? lowerExpr(a.expr, env) : a.array ? read(a.array, a.index, loc) : a.value;
    std::string n = names_.fresh(p->getName().empty() ? "arg" : p->getNameAsString());
    binds.push_back({n, convert(v, pt)});
    inner[p] = ir::Var::make(n, pt);
  }
}

// The body of `op` (a lambda's call operator) lowered into the caller: its
// lets go to effects_, the caller's variables it writes get new versions.
// Where no lets can go before the statement (a loop condition, an operand
// of ?: or &&), a lambda that writes no memory and none of the caller's
// variables is an expression, as a method is (references.cpp).
ir::Expr Lowering::callClosure(const Closure &c, const FunctionDecl *op, const std::vector<CallArg> &args, Env &env,
                               SourceLocation loc) {
  auto noEffectsHere = [&] {
    fail(loc, "a call of a lambda that writes memory or the caller's variables inside " +
                  (noEffectsWhere_.empty() ? std::string("this expression") : noEffectsWhere_) +
                  " is not supported (use a separate statement)");
  };
  Binds local;
  Binds *sink = effects_ ? effects_ : &local;
  if (std::find(inlining_.begin(), inlining_.end(), op) != inlining_.end())
    fail(loc, "recursion through lambdas is not supported");
  if (op->getReturnType()->isReferenceType()) fail(loc, "lambdas returning references are not supported");
  if (!op->hasBody()) fail(loc, "this lambda's body is not visible");
  prescan(op);
  struct CapturedThis { // `this` in the body is the object the lambda captured, wherever it is called
    std::vector<const VarDecl *> &stack;
    bool pushed;
    ~CapturedThis() { if (pushed) stack.pop_back(); }
  } capturedThis{thisStack_, c.capturedThis != nullptr};
  if (c.capturedThis) thisStack_.push_back(c.capturedThis);
  Env inner = env;
  for (const auto &[v, e] : c.values) inner[v] = e;
  Binds binds;
  std::vector<const VarDecl *> roots;
  bindCallArgs(op, args, env, inner, binds, roots, loc);
  collectAssigned(op->getBody(), env, roots); // the captured variables it writes (directly or through calls)
  if (!effects_ && !roots.empty()) noEffectsHere();
  Inlined in;
  QualType drt = op->getReturnType();
  in.result = drt->isVoidType() ? ir::Type::unit() : typeOf(drt.getUnqualifiedType(), loc);
  in.roots = roots;
  std::vector<ir::TypeP> ts{in.result};
  for (const VarDecl *r : roots) ts.push_back(env.at(r)->type);
  ir::TypeP packed = ir::Type::tuple(ts);
  ir::Expr body;
  {
    InlineScope scope(*this, op, &in, packed);
    struct ThisScope {
      ir::Expr &slot, saved;
      const CXXRecordDecl *&cls, *savedCls;
      ~ThisScope() { slot = saved, cls = savedCls; }
    } self{functorThis_, functorThis_, functorClass_, functorClass_};
    functorThis_ = c.self;
    functorClass_ = c.self ? c.rd : nullptr;
    const auto *cs = cast<CompoundStmt>(op->getBody());
    Seq s{cs->body_begin(), cs->body_end(), nullptr};
    SourceLocation endLoc = cs->getRBracLoc();
    Tail end = [this, endLoc, &in](Env &e) -> ir::Expr {
      if (in.result->isUnit()) return packInlined(ir::Tuple::make({}), e);
      fail(endLoc, "control reaches the end of the lambda without a 'return'");
    };
    body = lowerSeq(&s, inner, end);
  }
  std::string rn = names_.fresh(c.name + "_result");
  sink->push_back({rn, wrap(binds, body)});
  ir::Expr rv = ir::Var::make(rn, packed);
  if (!effects_) {
    if (ir::mayWrite(local.back().second)) noEffectsHere();
    return wrap(local, ir::Proj::make(rv, 0));
  }
  for (size_t k = 0; k < roots.size(); ++k) {
    std::string n = names_.fresh(roots[k]->getNameAsString());
    ir::Expr v = ir::Proj::make(rv, int(k) + 1);
    effects_->push_back({n, v});
    env[roots[k]] = ir::Var::make(n, v->type);
  }
  return ir::Proj::make(rv, 0);
}

// The variables the body of a lambda (or of the lambdas it calls or
// defines) may assign, found syntactically: the operand of an assignment,
// `++`/`--` or of a non-const reference parameter, as the caller's variable
// a reference designates.
void Lowering::closureWrites(const CXXRecordDecl *rd, std::vector<const VarDecl *> &out, int depth) {
  if (!rd || !rd->isLambda() || depth > 16) return;
  const FunctionDecl *op = rd->getLambdaCallOperator();
  if (rd->isGenericLambda()) op = rd->getDependentLambdaCallOperator()->getTemplatedDecl();
  // `this` of a lambda capturing it: the method object it was made in (or,
  // looking ahead before it is made, the method being lowered)
  const VarDecl *self = lambdaThis_.count(rd) ? lambdaThis_.at(rd) : thisStack_.empty() ? nullptr : thisStack_.back();
  auto addRoot = [&](const VarDecl *r) {
    if (std::find(out.begin(), out.end(), r) == out.end()) out.push_back(r);
  };
  auto thisRoots = [&](const std::function<void()> &fn) { // (with `this` the captured object)
    if (!self) return;
    thisStack_.push_back(self);
    struct Pop {
      std::vector<const VarDecl *> &s;
      ~Pop() { s.pop_back(); }
    } pop{thisStack_};
    fn();
  };
  auto base = [&](const Expr *e) {
    const Expr *whole = e;
    while (true) {
      e = e->IgnoreParenImpCasts();
      if (const auto *m = dyn_cast<MemberExpr>(e); m && !m->isArrow()) e = m->getBase();
      else break;
    }
    if (const auto *m = dyn_cast<MemberExpr>(e); m && isa<CXXThisExpr>(m->getBase()->IgnoreParenImpCasts()))
      return thisRoots([&] { // a member of the captured object (its owner's, for a split class: written_members.cpp)
        for (const VarDecl *r : assignedRoots(whole)) addRoot(r);
      });
    if (const auto *u = dyn_cast<UnaryOperator>(e); u && u->getOpcode() == UO_Deref &&
                                                    isa<CXXThisExpr>(u->getSubExpr()->IgnoreParenImpCasts()))
      return thisRoots([&] { addRoot(refRoot(self)); }); // `*this` given to a helper's reference parameter
    if (const auto *d = dyn_cast<DeclRefExpr>(e))
      if (const auto *v = dyn_cast<VarDecl>(d->getDecl())) {
        // (the lambda's own locals, a range-for's iterators among them, are
        // fresh at each call: only what it captures is written for the caller)
        std::vector<const VarDecl *> chosen = choiceRoots(v); // (a reference to one of two: both)
        if (chosen.empty()) chosen.push_back(refRoot(v));
        for (const VarDecl *r : chosen)
          if (r->getParentFunctionOrMethod() != op && std::find(out.begin(), out.end(), r) == out.end())
            out.push_back(r);
      }
  };
  std::function<void(const Stmt *)> walk = [&](const Stmt *s) {
    if (!s) return;
    if (const auto *b = dyn_cast<BinaryOperator>(s); b && b->isAssignmentOp()) base(b->getLHS());
    if (const auto *u = dyn_cast<UnaryOperator>(s); u && u->isIncrementDecrementOp()) base(u->getSubExpr());
    if (const auto *oc = dyn_cast<CXXOperatorCallExpr>(s); oc && oc->getNumArgs() >= 1 &&
                                                          (oc->isAssignmentOp() || oc->getOperator() == OO_PlusPlus ||
                                                           oc->getOperator() == OO_MinusMinus))
      base(oc->getArg(0));
    if (const auto *c = dyn_cast<CallExpr>(s))
      for (const Expr *a : referenceArguments(c)) base(a);
    if (const auto *c = dyn_cast<CallExpr>(s)) // a split object given to a method or helper that may write its members
      thisRoots([&] {                             // (the captured `this` among them: written_members.cpp)
        for (const auto &[obj, t] : splitObjectsWritten(c))
          for (const auto &[path, type, owner] : ownedNumberLeaves(obj, t))
            if (owner->getDeclContext() != op) addRoot(owner); // (not the lambda's own objects)
      });
    if (const auto *mc = dyn_cast<CXXMemberCallExpr>(s); mc && mc->getMethodDecl() && !mc->getMethodDecl()->isConst() &&
                                                          !mc->getMethodDecl()->isStatic() &&
                                                          isa<CXXThisExpr>(mc->getImplicitObjectArgument()->IgnoreParenImpCasts()) &&
                                                          !isViewStruct(ctx_.getRecordType(mc->getMethodDecl()->getParent())))
      thisRoots([&] { addRoot(refRoot(self)); }); // a non-const method of the captured object (a plain class)
    if (const auto *e = dyn_cast<Expr>(s); e && !e->isTypeDependent())
      if (const CXXRecordDecl *inner = closureRecord(e->getType()); inner && inner != rd)
        closureWrites(inner, out, depth + 1);
    if (const auto *le = dyn_cast<LambdaExpr>(s)) {
      closureWrites(le->getLambdaClass(), out, depth + 1);
      return;
    }
    for (const Stmt *ch : s->children()) walk(ch);
  };
  if (op) walk(op->getBody());
}

// The arguments a call passes to non-const reference parameters (a member
// operator's object is its first argument, not a parameter).
std::vector<const Expr *> Lowering::referenceArguments(const CallExpr *c) {
  std::vector<const Expr *> out;
  const FunctionDecl *fd = c->getDirectCallee();
  const FunctionDecl *def = fd ? fd->getDefinition() : nullptr;
  if (!def) return out;
  unsigned shift = isa<CXXOperatorCallExpr>(c) && isa<CXXMethodDecl>(def) && !cast<CXXMethodDecl>(def)->isStatic() ? 1 : 0;
  for (unsigned k = 0; k + shift < c->getNumArgs() && k < def->getNumParams(); ++k)
    if (outReferenceParam(def->getParamDecl(k))) out.push_back(c->getArg(k + shift));
  return out;
}

// The caller's variables (in `env`) a call may write through the callables
// it is given: the loops and branches around it carry them.
void Lowering::collectCallableWrites(const CallExpr *c, const Env &env, std::vector<const VarDecl *> &out) {
  std::vector<const VarDecl *> w;
  for (const Expr *a : c->arguments()) closureWrites(closureRecord(a->getType()), w, 0);
  // a lambda's own reference parameters (the closure is the call's first argument)
  if (isa<CXXOperatorCallExpr>(c) && c->getNumArgs() && closureRecord(c->getArg(0)->getType()))
    for (const Expr *a : referenceArguments(c))
      if (const auto *d = dyn_cast<DeclRefExpr>(a->IgnoreParenImpCasts()))
        if (const auto *v = dyn_cast<VarDecl>(d->getDecl())) w.push_back(refRoot(v));
  for (const VarDecl *v : w) {
    auto it = env.find(v);
    if (it != env.end() && !it->second->type->isArray() && std::find(out.begin(), out.end(), v) == out.end())
      out.push_back(v);
  }
}

// A call that may write a captured variable, inside a larger expression
// that also uses that variable (or calls another such callable): C++
// leaves their order unspecified, or the lowering could not keep it.
void Lowering::checkClosureSequencing(const Expr *full) {
  const Expr *top = stripNoOps(full, true);
  std::vector<std::pair<const CallExpr *, std::vector<const VarDecl *>>> writers;
  std::vector<const DeclRefExpr *> uses;
  std::function<void(const Stmt *)> walk = [&](const Stmt *s) {
    if (!s || isa<LambdaExpr>(s)) return;
    if (const auto *c = dyn_cast<CallExpr>(s)) {
      std::vector<const VarDecl *> w;
      for (const Expr *a : c->arguments()) closureWrites(closureRecord(a->getType()), w, 0);
      if (isa<CXXOperatorCallExpr>(c) && c->getNumArgs() && closureRecord(c->getArg(0)->getType()))
        for (const Expr *a : referenceArguments(c)) // (the call's own arguments are not "elsewhere")
          if (const auto *d = dyn_cast<DeclRefExpr>(a->IgnoreParenImpCasts()))
            if (const auto *v = dyn_cast<VarDecl>(d->getDecl())) w.push_back(refRoot(v));
      if (!w.empty()) writers.push_back({c, w});
    }
    if (const auto *d = dyn_cast<DeclRefExpr>(s); d && isa<VarDecl>(d->getDecl())) uses.push_back(d);
    for (const Stmt *ch : s->children()) walk(ch);
  };
  walk(full);
  auto inside = [](const Stmt *s, const Stmt *in) {
    std::function<bool(const Stmt *)> f = [&](const Stmt *x) {
      if (x == s) return true;
      for (const Stmt *ch : x->children())
        if (ch && f(ch)) return true;
      return false;
    };
    return f(in);
  };
  for (const auto &[c, w] : writers) {
    if (c == top && writers.size() == 1) continue;
    for (const DeclRefExpr *d : uses) {
      const VarDecl *v = refRoot(cast<VarDecl>(d->getDecl()));
      if (std::find(w.begin(), w.end(), v) == w.end() || inside(d, c)) continue;
      fail(c->getExprLoc(), "'" + v->getNameAsString() +
                                "' may be modified by the lambda this call runs and is also used elsewhere in the "
                                "expression, in an order C++ leaves unspecified: write it as separate statements");
    }
    for (const auto &[c2, w2] : writers)
      if (c2 != c && !inside(c2, c) && !inside(c, c2))
        for (const VarDecl *v : w2)
          if (std::find(w.begin(), w.end(), v) != w.end())
            fail(c->getExprLoc(), "two calls in this expression may modify '" + v->getNameAsString() +
                                      "' through lambdas, in an order C++ leaves unspecified: write them as separate "
                                      "statements");
  }
}

// A function template instantiated with a callable (a lambda's closure
// type, or a function pointer or reference), lowered into each caller.
bool Lowering::takesCallable(const FunctionDecl *fd) {
  const FunctionDecl *def = fd->getDefinition();
  if (!def || !def->hasBody() || sm_.isInSystemHeader(sm_.getExpansionLoc(def->getLocation()))) return false;
  return std::any_of(def->param_begin(), def->param_end(), [&](const ParmVarDecl *p) {
    QualType t = p->getType().getNonReferenceType();
    return closureRecord(t) || functorRecord(t) || t->isFunctionPointerType() || t->isFunctionType() ||
           isStdFunction(t);
  });
}

// The caller's variables (not arrays) the closure of `rd` may write, added to
// `roots`: the inlined call gives them back.
void Lowering::noteClosureRoots(const CXXRecordDecl *rd, const Env &env, std::vector<const VarDecl *> &roots) {
  std::vector<const VarDecl *> w;
  closureWrites(rd, w, 0);
  for (const VarDecl *v : w)
    if (auto it = env.find(v); it != env.end() && !it->second->type->isArray() &&
                               std::find(roots.begin(), roots.end(), v) == roots.end())
      roots.push_back(v);
}

// Binds a callable parameter of an inlined template to its argument; false
// when `p` is no callable parameter.
bool Lowering::bindCallableParam(const ParmVarDecl *p, const Expr *arg, Env &env, Binds &binds,
                                 std::vector<const VarDecl *> &roots) {
  QualType t = p->getType().getNonReferenceType();
  if (isStdFunction(t)) return bindStdFunctionParam(p, arg, env, binds, roots); // (std_function.cpp)
  if (const CXXRecordDecl *rd = closureRecord(t) ? closureRecord(t) : functorRecord(t)) {
    Closure c;
    if (!closureOf(arg, env, binds, c))
      fail(arg->getExprLoc(), "this lambda argument is not supported (pass a lambda or a local holding one)");
    closures_[p] = c;
    noteClosureRoots(rd, env, roots);
    return true;
  }
  if (!t->isFunctionPointerType() && !t->isFunctionType()) return false;
  const auto *d = dyn_cast<DeclRefExpr>(stripCallable(arg));
  const FunctionDecl *fd = d ? dyn_cast<FunctionDecl>(d->getDecl()) : nullptr;
  if (!fd && d)
    if (const auto *v = dyn_cast<VarDecl>(d->getDecl()); v && functions_.count(v)) fd = functions_.at(v);
  if (!fd) fail(arg->getExprLoc(), "this function pointer argument is not supported (pass a function's name)");
  functions_[p] = fd;
  return true;
}

} // namespace unfad::frontend
