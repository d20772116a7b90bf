// Side effects inside expressions: `a[i++]`, `s += x[k++]`, `x = y = 0`,
// `a[i] = b[i] = v`, `(a += b) * c`, `s += (t = f(x))`, the comma operator.
//
// A full expression (an expression statement, an initialiser, a `return`
// value, an `if` condition) is lowered with an EffectScope: each assignment,
// increment or store inside it becomes a let appended to the scope's list as
// it is met (left to right, operands before the operation), the variable's
// new SSA value goes into the environment, and the expression's value reads
// the values those lets name. The statement puts the lets before itself.
//
// That order is C++'s wherever C++ fixes one. Where it does not (the operands
// of `+`, of a call, `a[i++] = i` before C++17), checkSequenced refuses an
// expression that modifies a variable or array and also reads or modifies it
// elsewhere: its meaning would depend on the compiler. Operands evaluated
// only conditionally (of `?:`, `&&`, `||`) and loop conditions may not have
// side effects (there is no statement before them to put the lets in).
#include "lowering.h"

#include <clang/AST/DeclCXX.h>

#include <algorithm>

namespace unfad::frontend {

using namespace clang;

const Expr *stripNoOps(const Expr *e, bool valueCasts) {
  while (true) {
    e = e->IgnoreParens();
    if (const auto *c = dyn_cast<ImplicitCastExpr>(e);
        c && (c->getCastKind() == CK_NoOp ||
              (valueCasts && (c->getCastKind() == CK_ArrayToPointerDecay || c->getCastKind() == CK_LValueToRValue)))) {
      e = c->getSubExpr();
      continue;
    }
    if (const auto *c = dyn_cast<ExprWithCleanups>(e)) {
      e = c->getSubExpr();
      continue;
    }
    return e;
  }
}

namespace {

// The variable whose value or memory the lvalue `e` denotes: `x`, `p.f`,
// `a[i]`, `*a`, `v[i]`, `v.at(i)`, `v.front()` -> its DeclRefExpr.
const DeclRefExpr *targetRef(const Expr *e) {
  for (int depth = 0; depth < 16; ++depth) {
    e = stripNoOps(e, true);
    if (const auto *d = dyn_cast<DeclRefExpr>(e)) return isa<VarDecl>(d->getDecl()) ? d : nullptr;
    if (const auto *m = dyn_cast<MemberExpr>(e)) e = m->getBase();
    else if (const auto *a = dyn_cast<ArraySubscriptExpr>(e)) e = a->getBase();
    else if (const auto *u = dyn_cast<UnaryOperator>(e); u && u->getOpcode() == UO_Deref) e = u->getSubExpr();
    else if (const auto *oc = dyn_cast<CXXOperatorCallExpr>(e); oc && oc->getOperator() == OO_Subscript) e = oc->getArg(0);
    else if (const auto *mc = dyn_cast<CXXMemberCallExpr>(e)) e = mc->getImplicitObjectArgument();
    else return nullptr;
  }
  return nullptr;
}

// An expression that modifies its first operand, and that operand.
const Expr *modifiedOperand(const Stmt *s) {
  if (const auto *b = dyn_cast<BinaryOperator>(s); b && b->isAssignmentOp()) return b->getLHS();
  if (const auto *u = dyn_cast<UnaryOperator>(s); u && u->isIncrementDecrementOp()) return u->getSubExpr();
  if (const auto *oc = dyn_cast<CXXOperatorCallExpr>(s); oc && isTrivialStructAssign(oc)) return oc->getArg(0);
  if (const auto *oc = dyn_cast<CXXOperatorCallExpr>(s); oc && iteratorStep(oc)) return oc->getArg(0);
  return nullptr;
}

bool isPlainAssign(const Stmt *s) {
  if (const auto *b = dyn_cast<BinaryOperator>(s)) return b->getOpcode() == BO_Assign;
  const auto *oc = dyn_cast<CXXOperatorCallExpr>(s);
  return oc && isTrivialStructAssign(oc);
}

bool isPostIncDec(const Stmt *s) {
  if (const auto *oc = dyn_cast<CXXOperatorCallExpr>(s); oc && iteratorStep(oc)) // it++: operator++(it, int)
    return oc->getNumArgs() == 2 && (oc->getOperator() == OO_PlusPlus || oc->getOperator() == OO_MinusMinus);
  const auto *u = dyn_cast<UnaryOperator>(s);
  return u && u->isPostfix() && u->isIncrementDecrementOp();
}

// The right operand of an assignment `s`.
const Stmt *assignedValue(const Stmt *s) {
  if (const auto *b = dyn_cast<BinaryOperator>(s)) return b->getRHS();
  if (const auto *oc = dyn_cast<CXXOperatorCallExpr>(s)) return oc->getArg(1);
  return nullptr;
}

// The nodes of a full expression with their paths from its root; for a
// modification, what it modifies.
struct Node {
  const Stmt *s;
  std::vector<const Stmt *> path; // root ... s
  const Expr *target = nullptr;
};

// `refArgs(call)`: the arguments a call modifies (through the callee's
// non-const reference parameters).
void collect(const Stmt *s, std::vector<const Stmt *> &path, std::vector<Node> &mods, std::vector<Node> &refs,
             const std::function<std::vector<const Expr *>(const CallExpr *)> &refArgs) {
  if (!s || isa<LambdaExpr>(s)) return;
  path.push_back(s);
  if (const Expr *m = modifiedOperand(s)) mods.push_back({s, path, m});
  if (const auto *c = dyn_cast<CallExpr>(s))
    for (const Expr *a : refArgs(c)) mods.push_back({s, path, a});
  if (const auto *d = dyn_cast<DeclRefExpr>(s); d && isa<VarDecl>(d->getDecl())) refs.push_back({s, path});
  for (const Stmt *c : s->children()) collect(c, path, mods, refs, refArgs);
  path.pop_back();
}

bool within(const Node &inner, const Stmt *outer) {
  return std::find(inner.path.begin(), inner.path.end(), outer) != inner.path.end();
}

// C++ orders the evaluation of `a` (a modification) and `b` (a use of the same
// variable outside it): they are on different sides of a sequence point the
// lowering keeps (comma, the first operand of `&&`, `||`, `?:`; the two arms of
// `?:`, of which only one runs), or `b` names
// the object an assignment stores into after its right operand `a`.
bool sequenced(const Node &a, const Node &b) {
  size_t k = 0;
  while (k < a.path.size() && k < b.path.size() && a.path[k] == b.path[k]) ++k;
  if (k == 0 || k >= a.path.size() || k >= b.path.size()) return false;
  const Stmt *l = a.path[k - 1], *ca = a.path[k], *cb = b.path[k];
  if (const auto *bo = dyn_cast<BinaryOperator>(l)) {
    if (bo->getOpcode() == BO_Comma) return true;
    if (bo->getOpcode() == BO_LAnd || bo->getOpcode() == BO_LOr) return ca == bo->getLHS() || cb == bo->getLHS();
  }
  if (isa<ConditionalOperator>(l)) return true; // the condition first, then one arm: `c ? (x = a) : (x *= b)`
  if (const auto *co = dyn_cast<AbstractConditionalOperator>(l)) return ca == co->getCond() || cb == co->getCond();
  if (isPlainAssign(l) && ca == assignedValue(l) && !isPostIncDec(a.s))
    return targetRef(modifiedOperand(l)) == b.s;
  return false;
}

} // namespace

// Refuses what C++ leaves unsequenced (see the file comment).
void Lowering::checkSequenced(const Expr *full) {
  checkClosureSequencing(full);
  std::vector<const Stmt *> path;
  std::vector<Node> mods, refs;
  auto refArgs = [this](const CallExpr *c) {
    std::vector<const Expr *> out;
    if (!c->getDirectCallee() || !takesOutReference(c->getDirectCallee())) return out;
    const FunctionDecl *def = c->getDirectCallee()->getDefinition();
    for (unsigned k = 0; k < c->getNumArgs() && k < def->getNumParams(); ++k)
      if (outReferenceParam(def->getParamDecl(k))) out.push_back(c->getArg(k));
    return out;
  };
  collect(full, path, mods, refs, refArgs);
  if (mods.size() < 2 && (mods.empty() || mods[0].s == stripNoOps(full, true))) return; // one statement-level write
  // a reference is the variable it designates
  auto var = [this](const DeclRefExpr *d) -> const Decl * {
    const auto *vd = dyn_cast<VarDecl>(d->getDecl());
    return vd ? refRoot(vd) : d->getDecl();
  };
  for (const Node &m : mods) {
    const DeclRefExpr *t = targetRef(m.target);
    if (!t) continue;
    const Decl *v = var(t);
    auto clash = [&] {
      fail(cast<Expr>(m.s)->getExprLoc(),
           "'" + cast<NamedDecl>(v)->getNameAsString() +
               "' is modified here and also used elsewhere in the expression, in an order C++ leaves unspecified "
               "(or fixes only since C++17): write it as separate statements");
    };
    for (const Node &r : refs) {
      if (var(cast<DeclRefExpr>(r.s)) != v || within(r, m.s)) continue;
      if (!sequenced(m, r)) clash();
    }
    for (const Node &m2 : mods) {
      if (m2.s == m.s || !within(m2, m.s)) continue;
      const DeclRefExpr *t2 = targetRef(m2.target);
      if (!t2 || var(t2) != v) continue;
      // `x = (x = e)`, `a[i] = a[j] = v`, `x = ++x`: the inner write comes first
      bool ok = isPlainAssign(m.s) && within(m2, assignedValue(m.s)) && !isPostIncDec(m2.s);
      if (!ok) clash();
    }
  }
}

ir::Expr Lowering::lowerFull(const Expr *e, Env &env, Binds &pre) {
  EffectScope scope(*this, &pre);
  checkSequenced(e);
  return lowerExpr(e, env);
}

// An assignment, compound assignment, `++` or `--` used as a value: its
// effect becomes a let of the current scope, its value the target's new
// value (the old one for `x++`).
ir::Expr Lowering::lowerSideEffect(const Expr *e, Env &env) {
  SourceLocation loc = e->getExprLoc();
  bool incdec = isa<UnaryOperator>(e);
  if (!effects_) {
    std::string what = incdec ? "increment or decrement" : "assignment";
    fail(loc, what + " inside " + (noEffectsWhere_.empty() ? "this expression" : noEffectsWhere_) +
                  " is not supported (use a separate statement)");
  }
  if (const VarDecl *through = nullptr; const RefChoice *ch = writtenChoice(e, through))
    return lowerChoiceWrite(e, through, *ch, env);
  bool post = isPostIncDec(e);
  ArrayTarget target;
  ir::Expr eff;
  Binds before; // the old value of `a[i]++`, read before the store
  if (lowerArrayStore(e, env, eff, &target)) {
    auto element = [&] {
      ir::Expr r = read(target.array, target.index, loc);
      for (int k : target.path) r = ir::Proj::make(r, k);
      return r;
    };
    ir::Expr old;
    if (post) {
      std::string o = names_.fresh("old");
      ir::Expr r = element();
      effects_->push_back({o, r});
      old = ir::Var::make(o, r->type);
    }
    effects_->push_back({names_.fresh("_"), eff});
    if (post) return old;
    std::string n = names_.fresh("t");
    ir::Expr r = element();
    effects_->push_back({n, r});
    return ir::Var::make(n, r->type);
  }
  const VarDecl *root = nullptr;
  ir::Expr value;
  std::vector<int> path;
  const Expr *lhs = modifiedOperand(e);
  ir::Expr old;
  struct IndexEnv { // (the indices of member array elements: member_arrays.cpp)
    Env *&slot, *saved;
    ~IndexEnv() { slot = saved; }
  } indexEnv{indexEnv_, indexEnv_};
  indexEnv_ = &env;
  if (post) {
    const VarDecl *r = assignedRoot(lhs, path, true);
    auto it = env.find(r);
    if (it != env.end()) old = readPath(cellValue(r, env), path);
  }
  if (!lowerAssignment(e, env, root, value)) fail(loc, "this expression is not supported");
  path.clear();
  assignedRoot(lhs, path, true);
  std::string n = names_.fresh(root->getName().empty() ? "v" : root->getNameAsString());
  effects_->push_back({n, value});
  if (cells_.count(root)) { // (a variable in memory: address_taken.cpp)
    effects_->push_back({names_.fresh("_"), storeCell(root, env, ir::Var::make(n, value->type))});
    return post && old ? old : readPath(ir::Var::make(n, value->type), path);
  }
  env[root] = ir::Var::make(n, value->type);
  return post && old ? old : readPath(env[root], path);
}

// A write through a reference to one of two objects (`double& m = c ? a :
// b; m += x;`, a non-const method `m.add(x)` of a statement): the reference
// and its choice; null for any other write.
const Lowering::RefChoice *Lowering::writtenChoice(const Expr *e, const VarDecl *&vd) {
  const Expr *lhs = modifiedOperand(e->IgnoreParens());
  if (const auto *mc = dyn_cast<CXXMemberCallExpr>(e->IgnoreParens()); mc && mc->getMethodDecl() && // a.add(v)
                                                                        !mc->getMethodDecl()->isConst() &&
                                                                        !mc->getMethodDecl()->isStatic())
    lhs = mc->getImplicitObjectArgument();
  if (!lhs) return nullptr;
  const Expr *x = stripNoOps(lhs);
  for (const MemberExpr *m; (m = dyn_cast<MemberExpr>(x)) && !m->isArrow();) x = stripNoOps(m->getBase());
  const auto *d = dyn_cast<DeclRefExpr>(x);
  vd = d ? dyn_cast<VarDecl>(d->getDecl()) : nullptr;
  const RefTarget *t = vd ? refOf(vd) : nullptr;
  return t && t->choice ? t->choice.get() : nullptr;
}

// That write, on the object chosen when the reference was bound: a branch
// per object, the reference bound to it inside (choiceWithEffects joins the
// variables either branch assigns). Its value is the write's.
ir::Expr Lowering::lowerChoiceWrite(const Expr *e, const VarDecl *vd, const RefChoice &choice, Env &env) {
  const RefTarget saved = *refOf(vd); // (keeps `choice` alive while refs_[vd] changes)
  auto on = [&](const RefTarget &t) {
    return [&, t](Env &in) {
      refs_[vd] = t;
      ir::Expr v = isa<CXXMemberCallExpr>(e->IgnoreParens()) ? lowerExpr(e, in) : lowerSideEffect(e, in);
      refs_[vd] = saved;
      return v;
    };
  };
  ir::Expr v = choiceWithEffects(choice.cond, on(choice.then), on(choice.otherwise), env, vd->getNameAsString());
  refs_[vd] = saved;
  return v;
}

} // namespace unfad::frontend
