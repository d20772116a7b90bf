// `switch`: an `if` chain over the case labels. Each entry point runs the
// statements from its label on (falling through into the next cases) until a
// `break`, a `return`, a `continue` of an enclosing loop, or the end of the
// body. Every path ends in one join tuple
//   (returned?, continued?, value?, the variables the switch assigns...)
// (each flag only when some path needs it) and the rest of the block follows
// once, as after an `if` that may return (statements.cpp). Also: whether a
// function body returns on every path (so that falling off its end, which
// the lowering still reaches on dead paths, is not an error).
#include "lowering.h"

#include <algorithm>

namespace unfad::frontend {

using namespace clang;

namespace {

// A `continue` in `s` (not of a loop nested in it): it leaves the switch.
bool containsContinue(const Stmt *s) {
  if (!s || isa<LambdaExpr>(s)) return false;
  if (isa<ContinueStmt>(s)) return true;
  if (isa<ForStmt>(s) || isa<WhileStmt>(s) || isa<DoStmt>(s) || isa<CXXForRangeStmt>(s)) return false;
  for (const Stmt *c : s->children())
    if (containsContinue(c)) return true;
  return false;
}

// A `break` of the switch or loop whose body is `s`.
bool containsOwnBreak(const Stmt *s) {
  if (!s || isa<LambdaExpr>(s)) return false;
  if (isa<BreakStmt>(s)) return true;
  if (isa<ForStmt>(s) || isa<WhileStmt>(s) || isa<DoStmt>(s) || isa<CXXForRangeStmt>(s) || isa<SwitchStmt>(s))
    return false;
  for (const Stmt *c : s->children())
    if (containsOwnBreak(c)) return true;
  return false;
}

bool containsReturn(const Stmt *s) {
  if (!s || isa<LambdaExpr>(s)) return false;
  if (isa<ReturnStmt>(s)) return true;
  for (const Stmt *c : s->children())
    if (containsReturn(c)) return true;
  return false;
}

// A case label of this switch below the top level of its body (Duff's device).
const SwitchCase *nestedLabel(const Stmt *s) {
  if (!s || isa<SwitchStmt>(s) || isa<LambdaExpr>(s)) return nullptr;
  if (const auto *sc = dyn_cast<SwitchCase>(s)) return sc;
  for (const Stmt *c : s->children())
    if (const SwitchCase *l = nestedLabel(c)) return l;
  return nullptr;
}

// A `break` or `continue` in `s` that leaves the loop `s` is in.
bool leavesLoop(const Stmt *s) { return containsOwnBreak(s) || containsContinue(s); }

bool isInfiniteLoopCond(const Expr *cond, ASTContext &ctx) {
  if (!cond) return true; // for (;;)
  bool v = false;
  return !cond->isValueDependent() && cond->EvaluateAsBooleanCondition(v, ctx) && v;
}

} // namespace

// Conservative: true only when control cannot reach the end of `s` (every
// path returns, or stays in an endless loop). `break`s and `continue`s of
// loops `s` is in count as leaving it.
bool alwaysReturns(const Stmt *s, ASTContext &ctx) {
  if (!s) return false;
  if (isa<ReturnStmt>(s)) return true;
  if (const auto *e = dyn_cast<Expr>(s); e && thrownBy(e)) return true; // (nor does a throw reach the end)
  if (const auto *cs = dyn_cast<CompoundStmt>(s)) {
    for (const Stmt *c : cs->body()) {
      if (leavesLoop(c)) return false;
      if (alwaysReturns(c, ctx)) return true;
    }
    return false;
  }
  if (const auto *as = dyn_cast<AttributedStmt>(s)) return alwaysReturns(as->getSubStmt(), ctx);
  if (const auto *is = dyn_cast<IfStmt>(s)) {
    if (std::optional<const Stmt *> taken = is->getNondiscardedCase(ctx)) return alwaysReturns(*taken, ctx);
    return alwaysReturns(is->getThen(), ctx) && alwaysReturns(is->getElse(), ctx);
  }
  if (const auto *ws = dyn_cast<WhileStmt>(s))
    return isInfiniteLoopCond(ws->getCond(), ctx) && !ws->getConditionVariable() && !containsOwnBreak(ws->getBody());
  if (const auto *fs = dyn_cast<ForStmt>(s))
    return isInfiniteLoopCond(fs->getCond(), ctx) && !fs->getConditionVariable() && !containsOwnBreak(fs->getBody());
  if (const auto *ds = dyn_cast<DoStmt>(s))
    return alwaysReturns(ds->getBody(), ctx) ||
           (isInfiniteLoopCond(ds->getCond(), ctx) && !containsOwnBreak(ds->getBody()));
  if (const auto *ss = dyn_cast<SwitchStmt>(s)) {
    // with a `default` and no `break`, every entry falls through to the last statement
    bool hasDefault = false;
    for (const SwitchCase *c = ss->getSwitchCaseList(); c; c = c->getNextSwitchCase())
      hasDefault = hasDefault || isa<DefaultStmt>(c);
    if (!hasDefault || leavesLoop(ss->getBody())) return false;
    const Stmt *last = ss->getBody();
    if (const auto *cs = dyn_cast<CompoundStmt>(last)) last = cs->body_empty() ? nullptr : cs->body_back();
    while (const auto *sc = dyn_cast_or_null<SwitchCase>(last)) last = sc->getSubStmt();
    return alwaysReturns(last, ctx);
  }
  return false;
}

ir::Expr Lowering::lowerSwitch(const SwitchStmt *ss, const Seq *rest, Env &env, const Tail &tail) {
  std::vector<const Stmt *> prelude;
  if (ss->getInit()) prelude.push_back(ss->getInit());
  if (ss->getConditionVariableDeclStmt()) prelude.push_back(ss->getConditionVariableDeclStmt());
  if (prelude.empty()) return lowerSwitchStmt(ss, rest, env, tail);
  Seq ps{prelude.data(), prelude.data() + prelude.size(), nullptr};
  return lowerSeq(&ps, env, [&](Env &e2) { return lowerSwitchStmt(ss, rest, e2, tail); });
}

namespace {

// The body's top-level statements without their labels, and where each
// entry point (one or more labels) starts.
struct SwitchEntry {
  size_t at = 0;
  std::vector<const CaseStmt *> cases;
  bool isDefault = false;
};

} // namespace

ir::Expr Lowering::lowerSwitchStmt(const SwitchStmt *ss, const Seq *rest, Env &env, const Tail &tail) {
  std::vector<const Stmt *> items;
  std::vector<SwitchEntry> entries;
  const Stmt *body = ss->getBody();
  std::vector<const Stmt *> top;
  if (const auto *cs = dyn_cast<CompoundStmt>(body)) top.assign(cs->body_begin(), cs->body_end());
  else top.push_back(body);
  for (const Stmt *st : top) {
    SwitchEntry en;
    en.at = items.size();
    bool labelled = false;
    while (const auto *sc = dyn_cast<SwitchCase>(st)) {
      labelled = true;
      if (const auto *c = dyn_cast<CaseStmt>(sc)) en.cases.push_back(c);
      else en.isDefault = true;
      st = sc->getSubStmt();
    }
    if (const SwitchCase *l = nestedLabel(st))
      fail(l->getBeginLoc(), "a case label inside a nested statement of a 'switch' is not supported");
    if (labelled) entries.push_back(en);
    items.push_back(st);
  }

  Binds pre; // side effects in the condition: `switch (k = next(k))`
  ir::Expr key = lowerFull(ss->getCond(), env, pre);
  if (!key->as<ir::Var>() && !key->as<ir::Const>()) {
    std::string kn = names_.fresh("kind");
    pre.push_back({kn, key});
    key = ir::Var::make(kn, key->type);
  }
  auto caseValue = [&](const Expr *e) {
    return convert(ir::Const::makeInt(e->EvaluateKnownConstInt(ctx_).getSExtValue()), key->type);
  };
  auto matches = [&](const SwitchEntry &en) {
    ir::Expr c;
    for (const CaseStmt *cs : en.cases) {
      ir::Expr m = cs->getRHS() // GNU `case lo ... hi:`
                       ? ir::Prim::make(ir::Op::And, {ir::Prim::make(ir::Op::Ge, {key, caseValue(cs->getLHS())}),
                                                      ir::Prim::make(ir::Op::Le, {key, caseValue(cs->getRHS())})})
                       : ir::Prim::make(ir::Op::Eq, {key, caseValue(cs->getLHS())});
      c = c ? ir::Prim::make(ir::Op::Or, {c, m}) : m;
    }
    return c;
  };

  // what every path of the switch ends in
  bool returns = containsReturn(body), continues = containsContinue(body);
  std::vector<const VarDecl *> assigned;
  collectAssigned(body, env, assigned);
  bool bare = !returns && !continues && assigned.size() == 1; // carried without a tuple
  auto pack = [&](bool returned, bool continued, const ir::Expr &value, Env &e2) {
    std::vector<ir::Expr> es;
    if (returns) es.push_back(ir::Const::makeBool(returned));
    if (continues) es.push_back(ir::Const::makeBool(continued));
    if (returns) es.push_back(value ? value : ir::Const::zero(result_));
    for (const VarDecl *v : assigned) es.push_back(e2.at(v));
    return bare ? es[0] : ir::Tuple::make(es);
  };
  const LoopCtx *enclosing = loops_.empty() ? nullptr : loops_.back();
  LoopCtx ctx;
  ctx.brk = [&](Env &e2) { return pack(false, false, nullptr, e2); };
  ctx.cont = [&](Env &e2) { return pack(false, true, nullptr, e2); };
  auto outerReturn = onReturn_;
  loops_.push_back(&ctx);
  onReturn_ = [&](const ir::Expr &v, Env &e2) { return pack(true, false, v, e2); };
  auto runFrom = [&](size_t at) {
    Env e2 = env;
    Seq s{items.data() + at, items.data() + items.size(), nullptr};
    return lowerSeq(&s, e2, ctx.brk);
  };
  auto defaultIt = std::find_if(entries.begin(), entries.end(), [](const SwitchEntry &en) { return en.isDefault; });
  ir::Expr chain = defaultIt != entries.end() ? runFrom(defaultIt->at) : ctx.brk(env);
  for (auto it = entries.rbegin(); it != entries.rend(); ++it)
    if (!it->isDefault) chain = ir::If::make(matches(*it), runFrom(it->at), chain);
  loops_.pop_back();
  onReturn_ = outerReturn;

  // after the switch: return, continue the enclosing loop, or the rest
  if (!returns && !continues && assigned.empty()) {
    if (!ir::mayWrite(chain)) return wrap(pre, lowerSeq(rest, env, tail));
    return wrap(pre, effect(chain, [&] { return lowerSeq(rest, env, tail); }));
  }
  if (bare) return wrap(pre, bindAndContinue(assigned[0], chain, rest, env, tail));
  std::string jn = names_.fresh("joined");
  ir::Expr jv = ir::Var::make(jn, chain->type);
  size_t first = size_t(returns) * 2 + size_t(continues);
  Env before = env;
  Binds binds;
  for (size_t i = 0; i < assigned.size(); ++i) {
    std::string n = names_.fresh(assigned[i]->getNameAsString());
    ir::Expr val = ir::Proj::make(jv, int(first + i));
    env[assigned[i]] = ir::Var::make(n, val->type);
    binds.push_back({n, val});
  }
  ir::Expr after = lowerSeq(rest, env, tail);
  if (continues) after = ir::If::make(ir::Proj::make(jv, returns ? 1 : 0), enclosing->cont(env), after);
  if (returns) {
    ir::Expr value = ir::Proj::make(jv, continues ? 2 : 1);
    after = ir::If::make(ir::Proj::make(jv, 0), outerReturn ? outerReturn(value, before) : value, after);
  }
  pre.push_back({jn, chain});
  return wrap(pre, wrap(binds, after));
}

} // namespace unfad::frontend
