// Writes through the references functions return: `at(v, i) += x`,
// `double& m = larger(v, 0, 1); m *= 2;`, `g.at(i, j) = v` with a method
// whose body computes an index before `return data_[k];`.
//
// Such a call is lowered into its caller (inlineCall, in the mode
// `returnsReference_` asks for) and each of its returns gives what it
// designates (lowerReferenceReturn): an element of one of the caller's
// arrays (the call's value is then the element's index, computed once, as
// a reference is bound once) or a variable of the caller (a local passed to
// a reference parameter, the object of a non-const method), with a field
// path. The result is a RefTarget, as a reference local bound to the
// element or the variable would have (references.cpp), so reads and writes
// of it are the element's or the variable's own: no wrapper and no call is
// left in the generated code. Returns that designate different objects on
// different paths (`c ? a : b` of two locals, two fields, two arrays) and
// references to the helper's own locals or by-value parameters (dangling
// after the call) are diagnosed at the `return`.
#include "lowering.h"

#include <clang/AST/DeclCXX.h>
#include <clang/AST/ExprCXX.h>

#include <unfad/ir/equal.h>

namespace unfad::frontend {

using namespace clang;

namespace {

std::string rootName(const ir::Expr &array) {
  const ir::Expr &r = ir::rootArray(array);
  if (const auto *v = r->as<ir::Var>()) return v->name;
  return "";
}

} // namespace

// The function `e` calls when it is a call of a user's function (or
// method) with a visible body returning an lvalue reference to a scalar or
// a struct; null otherwise (a standard library call, a method returning its
// object, ...).
const FunctionDecl *Lowering::referenceCallee(const Expr *e) {
  const auto *ce = dyn_cast<CallExpr>(stripNoOps(e));
  if (!ce || isa<CUDAKernelCallExpr>(ce)) return nullptr;
  const FunctionDecl *fd = ce->getDirectCallee();
  if (!fd || !fd->getReturnType()->isLValueReferenceType() || !returnsReadableReference(fd)) return nullptr;
  const FunctionDecl *def = fd->getDefinition();
  if (!def || !def->hasBody() || !isa<CompoundStmt>(def->getBody()) ||
      sm_.isInSystemHeader(sm_.getExpansionLoc(def->getLocation())))
    return nullptr;
  if (const auto *m = dyn_cast<CXXMethodDecl>(def)) {
    if (m->isVirtual()) return nullptr;
    if (!m->isStatic() && def->getReturnType().getNonReferenceType()->getAsCXXRecordDecl() == m->getParent())
      return nullptr; // `return *this;` (classes.cpp)
  }
  return def;
}

// What the call `e` returns a reference to, its effects and index as lets
// in `binds`; false when `e` is no such call.
bool Lowering::returnedReference(const Expr *e, Env &env, RefTarget &t, Binds &binds) {
  const FunctionDecl *def = referenceCallee(e);
  if (!def) return false;
  const auto *ce = cast<CallExpr>(stripNoOps(e));
  SourceLocation loc = ce->getExprLoc();
  std::string fname = def->getNameAsString();
  if (!effects_ && !noEffectsWhere_.empty()) // (a declaration's binds are its own)
    fail(loc, "a call of '" + fname + "', whose returned reference is written through or bound to a reference, inside " +
                  (noEffectsWhere_.empty() ? std::string("this expression") : noEffectsWhere_) +
                  " is not supported (use a separate statement)");
  ir::Expr index;
  struct Reset { // (also when lowering fails before inlineCall takes the mode)
    bool &flag;
    ~Reset() { flag = false; }
  };
  bool called = true;
  {
    EffectScope scope(*this, &binds);
    Reset reset{returnsReference_};
    returnsReference_ = true;
    if (const auto *m = dyn_cast<CXXMethodDecl>(def); m && !isa<CXXOperatorCallExpr>(ce) && !isa<CXXMemberCallExpr>(ce) &&
                                                     m->isStatic())
      index = inlineCall(def, std::vector<const Expr *>(ce->arg_begin(), ce->arg_end()), loc, env);
    else if (const auto *m = dyn_cast<CXXMethodDecl>(def))
      index = lowerMethodCall(ce, m, env);
    else
      index = inlineCall(def, std::vector<const Expr *>(ce->arg_begin(), ce->arg_end()), loc, env);
    called = !returnsReference_; // false: lowered some other way (an accessor of a class owning vectors reads its element)
  }
  if (!called) return false;
  t = returnedTarget_;
  if (!t.var) {
    std::string n = names_.fresh(fname + "_index");
    binds.push_back({n, index});
    t.index = ir::Var::make(n, ir::Type::i64());
  }
  return true;
}

// `return e;` in a helper lowered by returnedReference: what `e` designates
// (see Inlined::reference); the call's value.
ir::Expr Lowering::lowerReferenceReturn(const Expr *value, Env &env, Binds &pre) {
  SourceLocation loc = value->getExprLoc();
  std::string fname = inlining_.empty() ? std::string("the helper") : inlining_.back()->getNameAsString();
  RefTarget t;
  bool ok;
  {
    EffectScope scope(*this, &pre);
    ok = lvalueTarget(value, env, t, pre);
  }
  if (!ok && isa<ConditionalOperator>(stripNoOps(value)))
    fail(loc, "'" + fname + "' returns references to different objects on different paths (not supported: a "
              "reference must designate one variable, or elements of one array)");
  if (!ok)
    fail(loc, "'" + fname + "' returns a reference to something other than an element of an array, a variable of its "
              "caller or a field of one (not supported)");
  ir::Expr base, index;
  if (t.var) {
    if (std::find(inline_->roots.begin(), inline_->roots.end(), t.var) == inline_->roots.end())
      fail(loc, "'" + fname + "' returns a reference to its own local variable or by-value parameter '" +
                    t.var->getNameAsString() + "', which no longer exists after the call (a dangling reference)");
    index = ir::Const::makeInt(0);
  } else {
    base = ir::rootArray(t.array);
    if (!inline_->callerArrays.count(rootName(t.array)))
      fail(loc, "'" + fname + "' returns a reference into its own local array, which no longer exists after the call "
                "(a dangling reference)");
    index = t.index;
    if (t.array->is<ir::View>()) index = ir::Prim::make(ir::Op::Add, {ir::viewOffset(t.array), t.index});
  }
  if (inline_->referenceSet) {
    bool same = inline_->var ? t.var == inline_->var : !t.var && ir::alphaEqual(inline_->base, base);
    if (!same || inline_->path != t.path)
      fail(loc, "'" + fname + "' returns references to different objects on different paths (not supported: a "
                "reference must designate one variable, or elements of one array)");
  }
  inline_->referenceSet = true;
  inline_->var = t.var;
  inline_->base = base;
  inline_->path = t.path;
  return index;
}

// `c ? v[i] : v[j]` (or `c ? s : s`): one object whatever `c`, an element
// of one array whose index depends on `c`, or one variable. The branches
// must not write anything (their index computations are evaluated under
// the condition). False when they designate different objects.
bool Lowering::conditionalTarget(const Expr *e, Env &env, RefTarget &t, Binds &binds) {
  const auto *c = cast<ConditionalOperator>(e);
  ir::Expr cond = toBool(lowerExpr(c->getCond(), env));
  RefTarget ts[2];
  Binds bs[2];
  const Expr *arms[2] = {c->getTrueExpr(), c->getFalseExpr()};
  for (int k = 0; k < 2; ++k) {
    Binds effects;
    EffectScope scope(*this, &effects, "a branch of '?:'");
    if (!lvalueTarget(arms[k], env, ts[k], bs[k]) || !effects.empty()) return false;
    for (const auto &b : bs[k])
      if (ir::mayWrite(b.second)) return false;
  }
  if (ts[0].path != ts[1].path) return false;
  if (ts[0].var || ts[1].var) {
    if (ts[0].var != ts[1].var) return false;
    t = ts[0];
    return true;
  }
  ir::Expr base = ir::rootArray(ts[0].array);
  if (!ir::alphaEqual(base, ir::rootArray(ts[1].array))) return false;
  auto at = [&](int k) {
    ir::Expr i = ts[k].index;
    if (ts[k].array->is<ir::View>()) i = ir::Prim::make(ir::Op::Add, {ir::viewOffset(ts[k].array), i});
    return wrap(bs[k], i);
  };
  std::string n = names_.fresh("index");
  binds.push_back({n, ir::If::make(cond, at(0), at(1))});
  t = RefTarget{nullptr, ts[0].root == ts[1].root ? ts[0].root : nullptr, base, ir::Var::make(n, ir::Type::i64()), ts[0].path, nullptr};
  return true;
}

// `const double& m = std::max(a, b)`, `std::min(a, b)`, `std::clamp(v, lo,
// hi)` or `c ? a : b` where the arguments are different objects, one of
// which is written while `m` lives: m designates the one chosen at the
// binding, and reading m reads it as it is then (a choice of targets).
bool Lowering::choiceTarget(const Expr *e, Env &env, RefTarget &t, Binds &binds) {
  e = stripNoOps(e);
  auto target = [&](const Expr *x, RefTarget &r) {
    return lvalueTarget(x, env, r, binds) || choiceTarget(x, env, r, binds);
  };
  auto choose = [&](const ir::Expr &cond, const RefTarget &a, const RefTarget &b) {
    std::string n = names_.fresh("chosen");
    binds.push_back({n, cond});
    RefTarget r;
    r.choice = std::make_shared<RefChoice>(RefChoice{ir::Var::make(n, ir::Type::boolean()), a, b});
    return r;
  };
  if (const auto *c = dyn_cast<ConditionalOperator>(e)) {
    ir::Expr cond = toBool(lowerExpr(c->getCond(), env));
    RefTarget a, b;
    if (!target(c->getTrueExpr(), a) || !target(c->getFalseExpr(), b)) return false;
    t = choose(cond, a, b);
    return true;
  }
  const auto *ce = dyn_cast<CallExpr>(e);
  const FunctionDecl *fd = ce ? ce->getDirectCallee() : nullptr;
  if (!fd || !fd->isInStdNamespace() || !fd->getIdentifier() || !fd->getReturnType()->isReferenceType()) return false;
  llvm::StringRef n = fd->getName();
  unsigned argc = n == "clamp" ? 3 : n == "min" || n == "max" ? 2 : 0;
  if (!argc || ce->getNumArgs() != argc) return false; // (with a comparator: not this)
  std::vector<RefTarget> ts(argc);
  for (unsigned k = 0; k < argc; ++k)
    if (!target(ce->getArg(k), ts[k])) return false;
  SourceLocation loc = ce->getExprLoc();
  auto less = [&](const RefTarget &a, const RefTarget &b) {
    return ir::Prim::make(ir::Op::Lt, {readRef(a, env, loc), readRef(b, env, loc)});
  };
  if (n == "max") t = choose(less(ts[0], ts[1]), ts[1], ts[0]); // the first when equal
  else if (n == "min") t = choose(less(ts[1], ts[0]), ts[1], ts[0]);
  else t = choose(less(ts[0], ts[1]), ts[1], choose(less(ts[2], ts[0]), ts[2], ts[0]));
  return true;
}

// lowerArrayStore's target when it is a call returning a reference
// (`at(v, i) += x`): an element (true), or a variable, which is then left
// in callRefs_ for lowerAssignment (false).
bool Lowering::boundCallTarget(const Expr *base, Env &env, ir::Expr &array, ir::Expr &index, std::vector<int> &path) {
  if (!referenceCallee(base)) return false;
  Binds binds;
  RefTarget t;
  if (!returnedReference(base, env, t, binds)) return false;
  effects_->insert(effects_->end(), binds.begin(), binds.end());
  if (t.var) {
    callRefs_[stripNoOps(base)] = t;
    return false;
  }
  array = t.array, index = t.index;
  path.insert(path.begin(), t.path.begin(), t.path.end());
  return true;
}

// `std::minmax(a, b)` kept in a variable: a pair of references (the
// library's `b < a ? (b, a) : (a, b)`), each designating the object chosen
// when the pair is made, read as it is when it is read.
const CallExpr *Lowering::minmaxRefsInit(const VarDecl *vd) {
  const CallExpr *c = initializerCall(vd);
  const FunctionDecl *fd = c ? c->getDirectCallee() : nullptr;
  if (!fd || !fd->isInStdNamespace() || !fd->getIdentifier() || fd->getName() != "minmax" || c->getNumArgs() != 2)
    return nullptr;
  return isa<CXXStdInitializerListExpr>(c->getArg(0)->IgnoreImplicit()) ? nullptr : c;
}

ir::Expr Lowering::lowerMinmaxRefs(const VarDecl *vd, Env &env, const Tail &k) {
  const CallExpr *c = minmaxRefsInit(vd);
  Binds binds;
  RefTarget a, b;
  for (auto [arg, t] : {std::pair{c->getArg(0), &a}, std::pair{c->getArg(1), &b}})
    if (!lvalueTarget(arg, env, *t, binds) && !choiceTarget(arg, env, *t, binds))
      fail(arg->getExprLoc(), "'std::minmax' of a temporary keeps a reference to it past its end (undefined behavior): "
                              "give it variables, or use 'std::minmax({a, b})', which returns values");
  const SourceLocation loc = c->getExprLoc();
  const std::string n = names_.fresh("swapped");
  binds.push_back({n, ir::Prim::make(ir::Op::Lt, {readRef(b, env, loc), readRef(a, env, loc)})});
  const ir::Expr swapped = ir::Var::make(n, ir::Type::boolean());
  auto choose = [&](const RefTarget &x, const RefTarget &y) {
    RefTarget r;
    r.choice = std::make_shared<RefChoice>(RefChoice{swapped, x, y});
    return r;
  };
  refPairs_[vd] = {choose(b, a), choose(a, b)};
  return wrap(binds, k(env));
}

// `mm.first`, `mm.second` of such a pair (null otherwise).
const Lowering::RefTarget *Lowering::pairedRef(const MemberExpr *m) {
  const auto *d = dyn_cast<DeclRefExpr>(m->getBase()->IgnoreParenImpCasts());
  const auto *vd = d ? dyn_cast<VarDecl>(d->getDecl()) : nullptr;
  auto it = vd ? refPairs_.find(vd) : refPairs_.end();
  if (it == refPairs_.end()) return nullptr;
  return m->getMemberDecl()->getName() == "first" ? &it->second.first : &it->second.second;
}

} // namespace unfad::frontend
