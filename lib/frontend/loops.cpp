// Loops: counted `for` and range-based `for` become Folds, every other loop
// (`while`, `do`, `for` of another shape) a While; `break` and `continue`.
//
// Every loop becomes one IR loop whose state is the tuple of the outer
// variables the loop assigns (see LoopState); the body is lowered with a tail
// that packs the state again (`continue` jumps there; `break` packs it with
// the `done` flag set). Arrays are never state: Stores in the body update them.
#include "lowering.h"

#include "unfad/ir/equal.h"
#include "unfad/ir/mutator.h"

#include <clang/AST/RecursiveASTVisitor.h>

#include <algorithm>
#include <functional>

namespace unfad::frontend {

using namespace clang;

namespace {

// A `break` of the loop whose body is `s`.
bool containsBreak(const Stmt *s) {
  if (!s) return false;
  if (isa<BreakStmt>(s)) return true;
  if (isa<LambdaExpr>(s) || isa<ForStmt>(s) || isa<WhileStmt>(s) || isa<DoStmt>(s) || isa<CXXForRangeStmt>(s) ||
      isa<SwitchStmt>(s))
    return false;
  for (const Stmt *c : s->children())
    if (containsBreak(c)) return true;
  return false;
}

// `e` names the variable `v`.
bool refersTo(const Expr *e, const VarDecl *v) {
  const auto *d = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
  return d && d->getDecl() == v;
}

// Whether a call in `body` may write the array variable `range`: it is
// passed where the callee takes a pointer or reference to non-const.
class RangeWriteFinder : public RecursiveASTVisitor<RangeWriteFinder> {
public:
  const ValueDecl *range = nullptr;
  bool found = false;
  bool VisitCallExpr(CallExpr *c) {
    const FunctionDecl *fd = c->getDirectCallee();
    for (unsigned k = 0; k < c->getNumArgs(); ++k) {
      const Expr *x = c->getArg(k)->IgnoreParenImpCasts();
      if (const auto *m = dyn_cast<CXXMemberCallExpr>(x)) x = m->getImplicitObjectArgument()->IgnoreParenImpCasts();
      const auto *d = dyn_cast<DeclRefExpr>(x);
      if (!d || d->getDecl() != range) continue;
      if (!fd || k >= fd->getNumParams()) {
        found = true;
        continue;
      }
      QualType t = fd->getParamDecl(k)->getType();
      QualType pointee = t->isReferenceType() ? t.getNonReferenceType() : t->isPointerType() ? t->getPointeeType() : QualType();
      if (!pointee.isNull() && !pointee.isConstQualified()) found = true;
    }
    return true;
  }
};

// Whether the IR `body` stores into the array variable `array`.
class StoreFinder : public ir::Visitor {
public:
  std::string array;
  bool found = false;

protected:
  void visit(const ir::Store *x) override {
    if (auto v = x->array->as<ir::Var>(); v && v->name == array) found = true;
    ir::Visitor::visit(x);
  }
};

} // namespace

const ReturnStmt *findReturn(const Stmt *s) {
  if (!s || isa<LambdaExpr>(s)) return nullptr;
  if (const auto *r = dyn_cast<ReturnStmt>(s)) return r;
  for (const Stmt *c : s->children())
    if (const ReturnStmt *r = findReturn(c)) return r;
  return nullptr;
}

const Expr *singleReturnValue(const FunctionDecl *fd) {
  const FunctionDecl *def = nullptr;
  const auto *body = fd && fd->hasBody(def) ? dyn_cast_or_null<CompoundStmt>(def->getBody()) : nullptr;
  const auto *rs = body && body->size() == 1 ? dyn_cast<ReturnStmt>(body->body_front()) : nullptr;
  return rs ? rs->getRetValue() : nullptr;
}

Lowering::LoopState Lowering::loopState(const std::vector<const Stmt *> &parts, const Env &env, bool done,
                                        const VarDecl *condVar) {
  LoopState st;
  for (const Stmt *p : parts) collectAssigned(p, env, st.vars);
  if (condVar && std::find(st.vars.begin(), st.vars.end(), condVar) == st.vars.end()) st.vars.push_back(condVar);
  st.ret = findReturn(parts[0]) != nullptr; // the body (a return in the increment is impossible)
  st.done = done || st.ret;
  st.retType = result_;
  std::vector<ir::TypeP> ts;
  for (const VarDecl *v : st.vars) ts.push_back(env.at(v)->type);
  if (st.done) ts.push_back(ir::Type::boolean());
  if (st.ret) {
    ts.push_back(ir::Type::boolean());
    ts.push_back(result_);
  }
  st.type = ts.size() == 1 ? ts[0] : ir::Type::tuple(ts);
  return st;
}

ir::Expr Lowering::pack(const LoopState &st, const Env &env, bool done, const ir::Expr &returned) {
  std::vector<ir::Expr> es;
  for (const VarDecl *v : st.vars) es.push_back(env.at(v));
  if (st.done) es.push_back(ir::Const::makeBool(done || returned));
  if (st.ret) {
    es.push_back(ir::Const::makeBool(returned != nullptr));
    es.push_back(returned ? returned : ir::Const::zero(st.retType));
  }
  return es.size() == 1 ? es[0] : ir::Tuple::make(es);
}

ir::Expr Lowering::component(const LoopState &st, const ir::Expr &s, size_t k) {
  return st.count() == 1 ? s : ir::Proj::make(s, int(k));
}

void Lowering::unpack(const LoopState &st, const ir::Expr &s, Env &env, Binds &binds) {
  for (size_t k = 0; k < st.vars.size(); ++k) {
    std::string n = names_.fresh(st.vars[k]->getNameAsString());
    ir::Expr c = component(st, s, k);
    env[st.vars[k]] = ir::Var::make(n, c->type);
    binds.push_back({n, c});
  }
}

ir::Expr Lowering::lowerBody(const Stmt *body, Env &env, const LoopState &st, const Tail &cont) {
  LoopCtx ctx;
  ctx.cont = cont;
  ctx.brk = [this, &st](Env &e) { return pack(st, e, true); };
  loops_.push_back(&ctx);
  // `return v` in the body ends the loop with (done, returned, v)
  auto outerReturn = onReturn_;
  onReturn_ = [this, &st](const ir::Expr &v, Env &e) { return pack(st, e, true, v); };
  Seq bs{&body, &body + 1, nullptr};
  ir::Expr r = lowerSeq(&bs, env, cont);
  onReturn_ = outerReturn;
  loops_.pop_back();
  return r;
}

ir::Expr Lowering::afterLoop(const LoopState &st, const ir::Expr &loop, const Seq *rest, Env &env, const Tail &tail) {
  if (st.ret) {
    // if the loop returned, that is the result (or the enclosing join's);
    // otherwise the rest of the block follows
    std::string r = names_.fresh("state");
    ir::Expr rv = ir::Var::make(r, st.type);
    Binds binds;
    unpack(st, rv, env, binds);
    ir::Expr value = component(st, rv, st.doneIndex() + 2);
    ir::Expr returned = onReturn_ ? onReturn_(value, env) : value;
    ir::Expr body = lowerSeq(rest, env, tail);
    return ir::Let::make(r, loop, wrap(binds, ir::If::make(component(st, rv, st.doneIndex() + 1), returned, body)));
  }
  if (st.vars.empty()) return effect(loop, [&] { return lowerSeq(rest, env, tail); });
  if (st.count() == 1) return bindAndContinue(st.vars[0], loop, rest, env, tail);
  std::string r = names_.fresh("state");
  Binds binds;
  unpack(st, ir::Var::make(r, st.type), env, binds);
  ir::Expr body = lowerSeq(rest, env, tail);
  return ir::Let::make(r, loop, wrap(binds, body));
}

// `for (int i = a; i < b; ++i)` and friends: a Fold over [a, b) (reversed for
// `for (int i = b - 1; i >= a; --i)`), when `i` is only changed by the
// increment and `b` cannot change in the loop.
bool Lowering::countedShape(const ForStmt *fs, const Env &env, Counted &c) {
  const auto *ds = dyn_cast_or_null<DeclStmt>(fs->getInit());
  if (!ds || !ds->isSingleDecl() || !fs->getCond() || !fs->getInc() || fs->getConditionVariable()) return false;
  const auto *iv = dyn_cast<VarDecl>(ds->getSingleDecl());
  if (!iv || !iv->getInit() || iv->getType()->isReferenceType() || !iv->getType()->isIntegerType() ||
      iv->getType()->isBooleanType())
    return false;
  auto isIv = [iv](const Expr *e) { return refersTo(e, iv); };
  // `i + k` / `i - k` with a constant k (e.g. `i + 1 < n`)
  auto ivPlusConst = [&](const Expr *e, int64_t &k) {
    const auto *a = dyn_cast<BinaryOperator>(e->IgnoreParenImpCasts());
    if (!a || (a->getOpcode() != BO_Add && a->getOpcode() != BO_Sub) || !isIv(a->getLHS())) return false;
    Expr::EvalResult r;
    if (!a->getRHS()->EvaluateAsInt(r, ctx_)) return false;
    k = r.Val.getInt().getSExtValue();
    if (a->getOpcode() == BO_Sub) k = -k;
    return true;
  };
  const auto *b = dyn_cast<BinaryOperator>(fs->getCond()->IgnoreParens());
  if (!b || !b->isComparisonOp()) return false;
  BinaryOperatorKind op = b->getOpcode();
  if (isIv(b->getLHS())) {
    c.bound = b->getRHS();
  } else if (ivPlusConst(b->getLHS(), c.offset)) {
    c.bound = b->getRHS();
  } else if (isIv(b->getRHS())) {
    c.bound = b->getLHS();
    op = op == BO_LT ? BO_GT : op == BO_GT ? BO_LT : op == BO_LE ? BO_GE : op == BO_GE ? BO_LE : op;
  } else {
    return false;
  }
  if (!c.bound->IgnoreParenImpCasts()->getType()->isIntegerType()) return false;
  if (!countedStep(fs, iv, op, c)) return false;
  if (assignsIn(fs->getBody(), iv)) return false; // the index is not assigned in the body
  std::vector<const VarDecl *> assigned;
  collectAssigned(fs->getBody(), env, assigned);
  if (!loopInvariant(c.bound, assigned)) return false;
  c.index = iv;
  return true;
}

// Whether `body` assigns the variable `v` (moves it, for a pointer).
bool Lowering::assignsIn(const Stmt *body, const VarDecl *v) {
  Env only;
  only[v] = ir::Const::makeInt(0);
  std::vector<const VarDecl *> out;
  collectAssigned(body, only, out);
  return !out.empty();
}

// The step of a counted loop: +1 or -1 (or a constant stride), in the
// direction its condition `op` (with the index on the left) bounds.
bool Lowering::countedStep(const ForStmt *fs, const VarDecl *iv, BinaryOperatorKind op, Counted &c) {
  auto isIv = [iv](const Expr *e) { return refersTo(e, iv); };
  int step = 0;
  const Expr *inc = fs->getInc()->IgnoreParens();
  if (const auto *u = dyn_cast<UnaryOperator>(inc); u && u->isIncrementDecrementOp() && isIv(u->getSubExpr())) {
    step = u->isIncrementOp() ? 1 : -1;
  } else if (const auto *ca = dyn_cast<CompoundAssignOperator>(inc);
             ca && isIv(ca->getLHS()) && (ca->getOpcode() == BO_AddAssign || ca->getOpcode() == BO_SubAssign)) {
    Expr::EvalResult r;
    if (!ca->getRHS()->EvaluateAsInt(r, ctx_)) return false;
    int64_t k = r.Val.getInt().getSExtValue();
    if (ca->getOpcode() == BO_SubAssign) k = -k;
    if (k == 0 || k > 1000000 || k < -1000000) return false;
    step = k > 0 ? 1 : -1;
    c.stride = k > 0 ? k : -k; // (a stride other than 1 only with '<', '<=', '>', '>=': '!=' may step over)
    if (c.stride != 1 && op == BO_NE) return false;
  } else {
    return false;
  }
  if (step == 1 && (op == BO_LT || op == BO_NE || op == BO_LE)) {
    c.reversed = false;
    c.adjust = op == BO_LE;
  } else if (step == -1 && (op == BO_GE || op == BO_GT)) {
    c.reversed = true;
    c.adjust = op == BO_GT;
  } else {
    return false;
  }
  return true;
}

// `a[i]` of numbers no one may write: `a` a parameter or local of type
// `const int*` or `const std::vector<int>&` (the function may not write
// them, and the marked function's arrays do not alias: README), the index
// `i`; null otherwise.
static const Expr *constElementIndex(const Stmt *x, const Expr *&base) {
  const Expr *index = nullptr;
  base = nullptr;
  if (const auto *as = dyn_cast<ArraySubscriptExpr>(x)) base = as->getBase(), index = as->getIdx();
  if (const auto *oc = dyn_cast<CXXOperatorCallExpr>(x); oc && oc->getOperator() == OO_Subscript && oc->getNumArgs() == 2)
    base = oc->getArg(0), index = oc->getArg(1);
  const auto *d = base ? dyn_cast<DeclRefExpr>(base->IgnoreParenImpCasts()) : nullptr;
  const auto *vd = d ? dyn_cast<VarDecl>(d->getDecl()) : nullptr;
  if (!vd || !cast<Expr>(x)->getType()->isArithmeticType()) return nullptr;
  QualType t = vd->getType().getNonReferenceType();
  const bool constElems = t->isPointerType() ? t->getPointeeType().isConstQualified() : t.isConstQualified();
  return constElems ? index : nullptr;
}

// The bound of a counted loop does not change in the loop: no variable the
// body assigns, no array element but of a const array, no call given an
// array (`v.size()` is fine).
bool Lowering::loopInvariant(const Stmt *x, const std::vector<const VarDecl *> &assigned) {
  if (!x) return true;
  if (const auto *d = dyn_cast<DeclRefExpr>(x))
    return std::find(assigned.begin(), assigned.end(), d->getDecl()) == assigned.end();
  if (const Expr *a, *i = constElementIndex(x, a); i) // `widths[l + 1]`
    return loopInvariant(a, assigned) && loopInvariant(i, assigned);
  if (isa<ArraySubscriptExpr>(x) || isa<CXXOperatorCallExpr>(x) ||
      (isa<UnaryOperator>(x) && cast<UnaryOperator>(x)->getOpcode() == UO_Deref))
    return false;
  if (const auto *mc = dyn_cast<CXXMemberCallExpr>(x)) {
    ArrayInfo ai;
    if (mc->getMethodDecl() && mc->getMethodDecl()->getName() == "size" &&
        arrayInfo(mc->getObjectType(), ai, SourceLocation()))
      return !growsIn(mc->getImplicitObjectArgument(), assigned);
    return invariantGetter(mc, assigned);
  }
  if (const auto *call = dyn_cast<CallExpr>(x))
    for (const Expr *a : call->arguments()) {
      ArrayInfo ai;
      if (arrayInfo(a->getType(), ai, SourceLocation())) return false;
    }
  for (const Stmt *child : x->children())
    if (!loopInvariant(child, assigned)) return false;
  return true;
}

// `m.rows()`, `g->cols()`, `size()` in a method: a getter (a method whose
// body is `return E;`, E reading only its object's number members, its
// parameters and constants) whose object no statement of the loop assigns
// (for a split object: none of its number members, written_members.cpp)
// and whose arguments are invariant.
bool Lowering::invariantGetter(const CXXMemberCallExpr *mc, const std::vector<const VarDecl *> &assigned) {
  const CXXMethodDecl *md = mc->getMethodDecl();
  const Expr *value = singleReturnValue(md);
  if (!value || !md->getReturnType()->isIntegralOrEnumerationType() || md->isStatic()) return false;
  std::function<bool(const Stmt *)> pure = [&](const Stmt *s) -> bool {
    if (!s) return false;
    if (const auto *m = dyn_cast<MemberExpr>(s))
      return isa<CXXThisExpr>(m->getBase()->IgnoreParenImpCasts()) && m->getType()->isArithmeticType();
    if (const auto *d = dyn_cast<DeclRefExpr>(s)) return isa<ParmVarDecl>(d->getDecl()) || isa<EnumConstantDecl>(d->getDecl());
    if (const auto *u = dyn_cast<UnaryOperator>(s);
        u && (u->isIncrementDecrementOp() || u->getOpcode() == UO_Deref || u->getOpcode() == UO_AddrOf))
      return false;
    if (const auto *b = dyn_cast<BinaryOperator>(s); b && b->isAssignmentOp()) return false;
    if (!isa<UnaryOperator>(s) && !isa<BinaryOperator>(s) && !isa<ImplicitCastExpr>(s) && !isa<ParenExpr>(s) &&
        !isa<ConditionalOperator>(s) && !isa<CStyleCastExpr>(s) && !isa<CXXStaticCastExpr>(s) &&
        !isa<IntegerLiteral>(s) && !isa<CXXBoolLiteralExpr>(s))
      return false;
    for (const Stmt *c : s->children())
      if (!pure(c)) return false;
    return true;
  };
  if (!pure(value)) return false;
  for (const Expr *a : mc->arguments())
    if (!a->getType()->isIntegralOrEnumerationType() || !loopInvariant(a, assigned)) return false;
  const Expr *obj = mc->getImplicitObjectArgument();
  QualType t = ctx_.getRecordType(md->getParent());
  auto isAssigned = [&](const VarDecl *v) { return std::find(assigned.begin(), assigned.end(), v) != assigned.end(); };
  if (isViewStruct(t)) {
    auto leaves = ownedNumberLeaves(obj, t);
    if (leaves.empty()) return false;
    for (const auto &[path, type, owner] : leaves)
      if (isAssigned(owner)) return false;
    return true;
  }
  if (const VarDecl *self = thisDecl(obj) ? thisDecl(obj) : thisDecl(obj, true)) return !isAssigned(self);
  const auto *d = dyn_cast<DeclRefExpr>(obj->IgnoreParenImpCasts());
  return d && !d->getDecl()->getType()->isPointerType() && !d->getDecl()->getType()->isReferenceType() &&
         loopInvariant(d, assigned);
}

ir::Expr Lowering::lowerFor(const ForStmt *fs, const Seq *rest, Env &env, const Tail &tail) {
  Counted c;
  if (fs->getConditionVariable() || (!countedShape(fs, env, c) && !countedIteratorShape(fs, env, c))) {
    // a While over the state, the increment at the end of each iteration
    const Stmt *init = fs->getInit();
    const DeclStmt *cv = fs->getConditionVariableDeclStmt();
    if (!init) return lowerWhile(fs->getBody(), fs->getCond(), fs->getInc(), false, rest, env, tail, cv);
    Seq is{&init, &init + 1, nullptr};
    return lowerSeq(&is, env, [&](Env &e2) {
      return lowerWhile(fs->getBody(), fs->getCond(), fs->getInc(), false, rest, e2, tail, cv);
    });
  }
  if (ir::Expr unrolled = c.pointer ? nullptr : lowerUnrolledFor(fs, c, rest, env, tail)) return unrolled; // member_arrays.cpp
  ir::TypeP i64 = ir::Type::i64();
  ir::Expr start, bound;
  Binds ends; // lets before the loop: what evaluating its ends binds (a getter's inlined call, `i < g.rows()`)
  {
    EffectScope endsScope(*this, &ends);
    if (c.pointer) { // an iterator's offsets (iterators.cpp)
      ir::Expr from = lowerArrayRef(c.index->getInit(), env), to = lowerArrayRef(c.bound, env);
      if (!ir::alphaEqual(ir::rootArray(from), ir::rootArray(to)))
        fail(c.bound->getExprLoc(), "this loop's iterator and its end point into different arrays");
      ptrBase_[c.index] = ir::rootArray(from);
      start = ir::viewOffset(from), bound = ir::viewOffset(to);
    } else {
      start = convert(lowerExpr(c.index->getInit(), env), i64);
      bound = convert(lowerExpr(c.bound, env), i64);
    }
  }
  if (c.offset != 0) bound = ir::Prim::make(ir::Op::Sub, {bound, ir::Const::makeInt(c.offset)});
  ir::Expr one = ir::Const::makeInt(1);
  ir::Expr lo, hi;
  if (!c.reversed) {
    lo = start;
    hi = c.adjust ? ir::Prim::make(ir::Op::Add, {bound, one}) : bound;
  } else {
    lo = c.adjust ? ir::Prim::make(ir::Op::Add, {bound, one}) : bound;
    hi = ir::Prim::make(ir::Op::Add, {start, one});
  }
  const Stmt *body = fs->getBody();
  LoopState st = loopState({body}, env, containsBreak(body));
  std::string idx = names_.fresh(c.index->getName().empty() ? "i" : c.index->getNameAsString());
  std::string sn = names_.fresh("state");
  ir::Expr sv = ir::Var::make(sn, st.type);
  Env eb = env;
  eb[c.index] = ir::Var::make(idx, i64);
  Binds binds;
  unpack(st, sv, eb, binds);
  Tail cont = [this, &st](Env &e) { return pack(st, e, false); };
  std::string step; // a strided loop counts steps t; its index is lo + t * stride (or hi - 1 - t * stride)
                    // ... from its ends, evaluated once before it (`ends`)
  if (c.stride != 1) {
    for (ir::Expr *end : {&lo, &hi}) {
      ends.push_back({names_.fresh(end == &lo ? "from" : "to"), *end});
      *end = ir::Var::make(ends.back().first, i64);
    }
    step = names_.fresh("step");
    ir::Expr s = ir::Const::makeInt(c.stride), t = ir::Prim::make(ir::Op::Mul, {ir::Var::make(step, i64), s});
    ir::Expr at = c.reversed ? ir::Prim::make(ir::Op::Sub, {ir::Prim::make(ir::Op::Sub, {hi, one}), t})
                             : ir::Prim::make(ir::Op::Add, {lo, t});
    binds.insert(binds.begin(), {idx, at});
    ir::Expr span = ir::Prim::make(ir::Op::Add, {ir::Prim::make(ir::Op::Sub, {hi, lo}), ir::Const::makeInt(c.stride - 1)});
    hi = ir::If::make(ir::Prim::make(ir::Op::Lt, {lo, hi}), ir::Prim::make(ir::Op::Div, {span, s}), ir::Const::makeInt(0));
    lo = ir::Const::makeInt(0);
  }
  ir::Expr b = wrap(binds, lowerBody(body, eb, st, cont));
  if (st.done) b = ir::If::make(component(st, sv, st.doneIndex()), sv, b); // after a break: nothing
  ir::Expr loop = ir::Fold::make(lo, hi, pack(st, env, false), step.empty() ? idx : step, sn, b,
                                 step.empty() && c.reversed);
  return wrap(ends, afterLoop(st, loop, rest, env, tail));
}

ir::Expr Lowering::lowerRangeFor(const CXXForRangeStmt *rs, const Seq *rest, Env &env, const Tail &tail) {
  SourceLocation loc = rs->getForLoc();
  if (rs->getInit()) fail(loc, "range-based 'for' with an initializer is not supported");
  if (ir::Expr unrolled = lowerMemberArrayRangeFor(rs, rest, env, tail)) return unrolled; // member_arrays.cpp
  const Expr *range = rs->getRangeInit();
  Binds overPre; // (the integers choosing a range of passive data: passive_data.cpp)
  PassiveAlias over;
  const bool passive = passiveRange(range) && spellPassive(range, env, overPre, over);
  ArrayInfo ai;
  if (!passive && (!range || !arrayInfo(range->getType(), ai, SourceLocation()) || ai.kind == ArrayInfo::Pointer))
    fail(loc, "range-based 'for' is only supported over arrays (std::vector, std::array, C arrays)");
  const VarDecl *lv = rs->getLoopVariable();
  QualType lt = lv->getType();
  // `for (double& v : out)`: v designates the element (references.cpp)
  bool writable = lt->isReferenceType() && !lt.getNonReferenceType().isConstQualified();
  // over a fixed-size table held flat (a local Mat3): its rows are views
  ir::Expr flat = passive ? nullptr : flatTableRef(range, env);
  std::optional<Flat> table = flat ? fixedTable(range->getType()) : std::nullopt;
  const VarDecl *tableVar = nullptr;
  if (const VarDecl *fv = flat || passive ? nullptr : flatTableVar(range)) { // a local vector of rows held flat
    tableVar = fv;
    flat = lookupVar(fv, env, loc);
    table = flatStride_.at(fv);
    if (const VarDecl *grown = growingLength(range)) table->rows = env.at(grown); // (grown by push_back)
  }
  ir::Expr arr = passive ? nullptr : flat ? flat : lowerArrayRef(range, env);
  ir::Expr n = passive ? passiveRangeLength(range, over) : table ? table->rows : arraySize(range, arr, loc, env);
  const Stmt *body = rs->getBody();
  LoopState st = loopState({body}, env, containsBreak(body));
  std::string idx = names_.fresh("i");
  std::string sn = names_.fresh("state");
  ir::Expr sv = ir::Var::make(sn, st.type);
  Env eb = env;
  Binds binds;
  unpack(st, sv, eb, binds);
  std::string ln = names_.fresh(lv->getNameAsString());
  if (!passive) passiveAliases_.erase(lv); // (a helper inlined again, over an array of the function this time)
  if (passive) {
    bindPassiveElement(rs, over, ir::Var::make(idx, ir::Type::i64()));
  } else if (ArrayInfo rai; arrayInfo(lt.getNonReferenceType(), rai, SourceLocation())) {
    if (!lt->isReferenceType() && rai.size < 0) // (a copy per iteration would allocate in the loop)
      fail(lv->getLocation(), "range-based 'for' copying rows of a run-time length is not supported (use 'const auto& " +
                                  lv->getNameAsString() + "')");
    ir::Expr i = ir::Var::make(idx, ir::Type::i64());
    ir::Expr row = table ? ir::View::make(arr, ir::Prim::make(ir::Op::Mul, {i, table->stride}))
                         : read(arr, i, lv->getLocation());
    if (table) flatRowLength_[lv] = table->stride;
    if (auto r = tableVar ? ragged_.find(tableVar) : ragged_.end(); r != ragged_.end()) // (ragged_tables.cpp)
      flatRowLength_[lv] = read(r->second.lengths, i, lv->getLocation());
    if (writable) { // (the row itself: a store through it is a store into the table)
      eb[lv] = row;
    } else if (!lt->isReferenceType()) { // `for (auto p : pts)`: the iteration's own copy of the row (on the stack)
      const ir::Expr size = ir::Const::makeInt(rai.size), copy = ir::Var::make(ln, row->type);
      binds.push_back({ln, ir::NewArray::make(size, row->type->elem())});
      binds.push_back({names_.fresh("_"), copyElements(row, nullptr, copy, nullptr, size, lv->getLocation())});
      eb[lv] = copy;
    } else {
      binds.push_back({ln, row});
      eb[lv] = ir::Var::make(ln, row->type);
    }
  } else if (writable) {
    const auto *rd = dyn_cast<DeclRefExpr>(range->IgnoreParenImpCasts());
    refs_[lv] = RefTarget{nullptr, rd ? dyn_cast<VarDecl>(rd->getDecl()) : nullptr, arr, ir::Var::make(idx, ir::Type::i64()), {}, nullptr};
  } else {
    ir::TypeP lty = typeOf(lt.getNonReferenceType().getUnqualifiedType(), lv->getLocation());
    binds.push_back({ln, convert(read(arr, ir::Var::make(idx, ir::Type::i64()), lv->getLocation()), lty)});
    eb[lv] = ir::Var::make(ln, lty);
  }
  Tail cont = [this, &st](Env &e) { return pack(st, e, false); };
  // `for (auto [a, b] : pairs)`: the bindings of a tuple-like element are
  // variables holding its parts (pairs_tuples.cpp), declared first
  std::vector<const VarDecl *> held;
  if (const auto *dd = dyn_cast<DecompositionDecl>(lv))
    for (const BindingDecl *bd : dd->bindings())
      if (const VarDecl *h = bd->getHoldingVar()) {
        holdingVars_.insert(h);
        held.push_back(h);
      }
  std::function<ir::Expr(size_t, Env &)> bodyFrom = [&](size_t k, Env &e) -> ir::Expr {
    if (k == held.size()) return lowerBody(body, e, st, cont);
    return lowerHoldingVar(held[k], e, [&bodyFrom, k](Env &e2) { return bodyFrom(k + 1, e2); });
  };
  ir::Expr b = wrap(binds, bodyFrom(0, eb));
  // The loop variable is read once, at the start of the iteration: a
  // reference would see the body's writes to the element, a copy does not.
  if (lt->isReferenceType() && !writable && arr) rejectWrittenRange(rs, arr, b);
  if (st.done) b = ir::If::make(component(st, sv, st.doneIndex()), sv, b);
  ir::Expr loop = ir::Fold::make(ir::Const::makeInt(0), n, pack(st, env, false), idx, sn, b);
  return wrap(overPre, afterLoop(st, loop, rest, env, tail));
}

// A range-based `for` by reference over an array the loop writes (in the
// lowered body `loweredBody`, or through a call) is an error.
void Lowering::rejectWrittenRange(const CXXForRangeStmt *rs, const ir::Expr &arr, const ir::Expr &loweredBody) {
  auto av = arr->as<ir::Var>();
  if (!av) return;
  StoreFinder stores;
  stores.array = av->name;
  stores.visitExpr(loweredBody);
  bool written = stores.found;
  if (const auto *d = dyn_cast<DeclRefExpr>(rs->getRangeInit()->IgnoreParenImpCasts())) {
    RangeWriteFinder calls;
    calls.range = d->getDecl();
    calls.TraverseStmt(const_cast<Stmt *>(rs->getBody()));
    written |= calls.found;
  }
  const VarDecl *lv = rs->getLoopVariable();
  if (written)
    fail(lv->getLocation(), "range-based 'for' by reference over an array the loop writes is not supported (take the "
                            "element by value, or index the array)");
}

// `while (c) B`, `do B while (c)` (B once, then the while) and the `for`
// loops of other shapes (with the increment `inc` ending each iteration).
// A condition variable (`while (double t = next(x))`, `for (...; T t = e;
// ...)`) is declared before the loop and again at the end of each
// iteration (after the increment), and is part of the loop's state: the
// condition tests it and the body reads it, its initialiser evaluated once
// per test, as in C++.
ir::Expr Lowering::lowerWhile(const Stmt *body, const Expr *cond, const Stmt *inc, bool isDo, const Seq *rest,
                              Env &env, const Tail &tail, const DeclStmt *condVar) {
  if (!condVar && cond && conditionHasEffects(cond)) { // `while (n--)` (effectful_conditions.cpp)
    const Expr *test = nullptr;
    const DeclStmt *decl = conditionAsVariable(cond, test);
    if (isDo) { // evaluated first after the first iteration
      Env e2 = env;
      e2[cast<VarDecl>(decl->getSingleDecl())] = ir::Const::makeBool(true);
      return lowerWhileWith(body, test, inc, isDo, rest, e2, tail, decl);
    }
    return lowerWhile(body, test, inc, isDo, rest, env, tail, decl);
  }
  if (condVar) {
    const Stmt *decl = condVar;
    Seq ds{&decl, &decl + 1, nullptr};
    return lowerSeq(&ds, env, [&](Env &e2) { return lowerWhileWith(body, cond, inc, isDo, rest, e2, tail, condVar); });
  }
  return lowerWhileWith(body, cond, inc, isDo, rest, env, tail, nullptr);
}

ir::Expr Lowering::lowerWhileWith(const Stmt *body, const Expr *cond, const Stmt *inc, bool isDo, const Seq *rest,
                                  Env &env, const Tail &tail, const DeclStmt *condVar) {
  const auto *cv = condVar ? cast<VarDecl>(condVar->getSingleDecl()) : nullptr;
  LoopState st = loopState({body, inc, condVar}, env, containsBreak(body), cv); // (the condition may assign: `while (n--)`)
  std::string sn = names_.fresh("state");
  ir::Expr sv = ir::Var::make(sn, st.type);
  Tail packT = [this, &st](Env &e) { return pack(st, e, false); };
  Tail redeclare = packT; // the condition variable's next value
  if (condVar)
    redeclare = [&](Env &e) {
      const Stmt *decl = condVar;
      Seq ds{&decl, &decl + 1, nullptr};
      return lowerSeq(&ds, e, packT);
    };
  Tail cont = redeclare;
  if (inc)
    cont = [&](Env &e) {
      Seq is{&inc, &inc + 1, nullptr};
      return lowerSeq(&is, e, redeclare);
    };
  // the condition sees the state directly
  Env ec = env;
  for (size_t k = 0; k < st.vars.size(); ++k) ec[st.vars[k]] = component(st, sv, k);
  ir::Expr c;
  {
    EffectScope noEffects(*this, nullptr, "a loop condition");
    c = cond ? toBool(lowerExpr(cond, ec)) : ir::Const::makeBool(true);
  }
  if (st.done) c = ir::Prim::make(ir::Op::And, {ir::Prim::make(ir::Op::Not, {component(st, sv, st.doneIndex())}), c});
  Env eb = env;
  Binds binds;
  unpack(st, sv, eb, binds);
  ir::Expr b = wrap(binds, lowerBody(body, eb, st, cont));
  if (!isDo) return afterLoop(st, ir::While::make(pack(st, env, false), sn, c, b), rest, env, tail);
  // do B while (c): the first iteration, then the loop
  Env e1 = env;
  ir::Expr first = lowerBody(body, e1, st, cont);
  std::string fn = names_.fresh("state");
  ir::Expr loop = ir::While::make(ir::Var::make(fn, st.type), sn, c, b);
  return ir::Let::make(fn, first, afterLoop(st, loop, rest, env, tail));
}

} // namespace unfad::frontend
