// The partial evaluator's walk (see partial_eval.h): one case per node
// kind, the residual lets it emits, and CSE over them.
#include "partial_eval.h"
#include "unfad/opt/passes.h"
#include "unfad/ir/equal.h"
#include "unfad/ir/mutator.h"

#include <functional>

namespace unfad::opt {

using namespace unfad::ir;

namespace {

// The value at the end of a let chain.
Expr chainTail(Expr e) {
  while (auto l = e->as<Let>()) e = l->body;
  return e;
}

// Whether atom e mentions a variable bound inside the branches of i.
bool dependsOnBranch(const Expr &e, const If *i) {
  std::unordered_set<std::string> local;
  for (const Expr &br : {i->thenE, i->elseE})
    for (Expr c = br; c->is<Let>(); c = c->as<Let>()->body) local.insert(c->as<Let>()->name);
  for (auto &v : freeVars(e))
    if (local.count(v)) return true;
  return false;
}

// The components π_0 v .. π_n v of one value v (of the same type) are v.
Expr etaTuple(const std::vector<Expr> &es, const TypeP &t) {
  if (es.empty()) return nullptr;
  Expr whole;
  for (size_t i = 0; i < es.size(); ++i) {
    auto p = es[i]->as<Proj>();
    if (!p || p->index != int(i) || !isAtom(p->tuple)) return nullptr;
    if (!whole) whole = p->tuple;
    else if (!alphaEqual(whole, p->tuple)) return nullptr;
  }
  return sameType(whole->type, t) ? whole : nullptr;
}

Expr makeTupleLike(const TypeP &t, std::vector<Expr> es) {
  return t->isStruct() ? ir::Tuple::makeStruct(t, std::move(es)) : ir::Tuple::make(std::move(es));
}

} // namespace

std::string stripSuffix(const std::string &hint) {
  auto us = hint.rfind('_');
  if (us != std::string::npos && us + 1 < hint.size() && us > 0 &&
      hint.find_first_not_of("0123456789", us + 1) == std::string::npos)
    return hint.substr(0, us);
  return hint;
}

PartialEvaluator::PartialEvaluator(const Expr &root, const std::vector<std::string> &reserved,
                                   const std::unordered_set<std::string> &pure)
    : pure_(pure) {
  for (auto &n : freeVars(root)) emitted_.insert(n);
  for (auto &n : reserved) emitted_.insert(n);
  // Loop binders keep their names (loopBinder): no residual let may take
  // one, or a loop's binder would shadow the let in the loop's scope and
  // the flat env_ would confuse the two after it.
  struct LoopBinders : Visitor {
    std::unordered_set<std::string> *names;
    void visit(const Fold *f) override { names->insert(f->index); names->insert(f->state); Visitor::visit(f); }
    void visit(const While *w) override { names->insert(w->state); Visitor::visit(w); }
    void visit(const Build *b) override { names->insert(b->index); Visitor::visit(b); }
    void visit(const Sum *m) override { names->insert(m->index); Visitor::visit(m); }
  } binders;
  binders.names = &emitted_;
  binders.visitExpr(root);
}

// Evaluates e in a block of its own: residual lets are kept inside it.
// `e` evaluated into its own let chain (knowing `cond` == holds, when given).
Expr PartialEvaluator::block(const Expr &e, const Expr &cond, bool holds) {
  Lets lets;
  Lets *saved = cur_;
  cur_ = &lets;
  size_t cseMark = cseLog_.size(), nestedMark = nestedLog_.size(), factsMark = factsLog_.size();
  if (cond) learn(cond, holds);
  Expr v = reify(evaluate(e));
  while (factsLog_.size() > factsMark) {
    facts_.erase(factsLog_.back());
    factsLog_.pop_back();
  }
  while (cseLog_.size() > cseMark) {
    cse_.erase(cseLog_.back());
    cseLog_.pop_back();
  }
  while (nestedLog_.size() > nestedMark) {
    nested_.erase(nestedLog_.back());
    nestedLog_.pop_back();
  }
  cur_ = saved;
  return zipLets(lets, v);
}

// Only of a variable: a condition reading memory may change value.
void PartialEvaluator::learn(const Expr &cond, bool value) {
  auto v = cond->as<Var>();
  if (v && facts_.emplace(v->name, value).second) factsLog_.push_back(v->name);
}

// The stripped hint, then the first free variant.
std::string PartialEvaluator::residualName(const std::string &hint) {
  std::string base = stripSuffix(hint);
  std::string n = base;
  int &k = suffix_[base];
  while (!emitted_.insert(n).second) n = base + "_" + std::to_string(++k);
  return n;
}

// A read of a[i]: shared with an earlier read (or store) of a[i] in scope
// that nothing has written since.
Expr PartialEvaluator::emitMemoryRead(const std::string &hint, const Expr &v) {
  std::string key = print(v);
  auto it = cse_.find(key);
  if (it != cse_.end()) return Var::make(it->second, v->type);
  std::string n = residualName(hint);
  cur_->push_back({n, v});
  cse_[key] = n;
  cseLog_.push_back(key);
  memoryKeys_.insert({key, v->as<ir::Index>()->array->as<Var>()->name});
  return Var::make(n, v->type);
}

// Store-to-load forwarding: after a[i] = x, a read of a[i] is x (until
// something writes a again). A tape read in the iteration that wrote it is
// then the value itself, and the tape, written only, goes.
void PartialEvaluator::forwardStore(const Expr &v) {
  auto st = v->as<Store>();
  if (!st || st->mode != Store::Mode::Set || !st->path.empty() || !st->array->is<Var>()) return;
  auto x = st->value->as<Var>();
  if (!x) return;
  std::string k = print(ir::Index::make(st->array, st->index));
  cse_[k] = x->name;
  cseLog_.push_back(k);
  memoryKeys_.insert({k, st->array->as<Var>()->name});
}

// Emits `let name = v` (after CSE) and returns the variable.
Expr PartialEvaluator::emit(const std::string &hint, const Expr &v) {
  if (mayWrite(v)) forgetReadsWrittenBy(v), forgetSizesResizedBy(v);
  if (auto x = v->as<ir::Index>(); x && x->array->is<Var>()) return emitMemoryRead(hint, v);
  std::string key;
  if ((v->is<Prim>() || v->is<Call>() || v->is<Opaque>() || v->is<ir::Size>()) && !memoryEffects(v).readsMemory && !mayWrite(v)) {
    key = print(v);
    auto it = cse_.find(key);
    if (it != cse_.end()) return Var::make(it->second, v->type);
    if (nested_.count(key)) return hoistToNestedSite(residualName(hint), key, v);
  }
  std::string n = residualName(hint);
  cur_->push_back({n, v});
  if (!key.empty()) {
    cse_[key] = n;
    cseLog_.push_back(key);
  }
  forwardStore(v);
  recordNestedSites(v);
  return Var::make(n, v->type);
}

// A value in expression position: static tuples become tuple expressions;
// lambdas may not escape.
Expr PartialEvaluator::reify(const Expr &v) {
  if (v->is<Lambda>()) throw IRError("optimise: a continuation escapes (not linear?)");
  auto t = v->as<ir::Tuple>();
  if (!t) return v;
  std::vector<Expr> es;
  bool changed = false;
  for (auto &x : t->elems) {
    es.push_back(reify(x));
    changed |= es.back() != x;
  }
  return changed ? makeTupleLike(t->type, es) : v;
}

// Makes v duplicable: atoms stay, everything else is let-bound.
Expr PartialEvaluator::atomize(const std::string &hint, const Expr &v) {
  if (isAtom(v) || v->is<Lambda>()) return v;
  if (auto t = v->as<ir::Tuple>()) {
    std::vector<Expr> es;
    std::string base = stripSuffix(hint);
    for (size_t i = 0; i < t->elems.size(); ++i) {
      std::string h = t->type->isStruct() ? base + "_" + t->type->fieldNames[i] : base + "_" + std::to_string(i);
      es.push_back(atomize(h, t->elems[i]));
    }
    return makeTupleLike(t->type, es);
  }
  if (v->is<If>() && v->type->isTuple() && !mayWrite(v)) return splitIf(hint, v);
  return emit(hint, v);
}

// let x = if c then <a1..an> else <b1..bn>: components equal in both
// branches are hoisted out; the rest stay in one residual if.
Expr PartialEvaluator::splitIf(const std::string &hint, const Expr &ifExpr) {
  const If *i = ifExpr->as<If>();
  auto tt = chainTail(i->thenE)->as<ir::Tuple>(), te = chainTail(i->elseE)->as<ir::Tuple>();
  if (!tt || !te) return emit(hint, ifExpr);
  // A flag saying which branch ran (true in one, false in the other) is the
  // condition itself.
  auto flag = [&](int k) -> Expr {
    auto a = tt->elems[k]->as<Const>(), b = te->elems[k]->as<Const>();
    if (!a || !b || !a->type->isBool() || a->ivalue == b->ivalue) return nullptr;
    return a->ivalue ? i->cond : Prim::make(Op::Not, {i->cond});
  };
  std::vector<int> kept;
  for (int k = 0; k < int(tt->elems.size()); ++k)
    if (!(isAtom(tt->elems[k]) && alphaEqual(tt->elems[k], te->elems[k]) && !dependsOnBranch(tt->elems[k], i)) &&
        !flag(k))
      kept.push_back(k);
  // A branch with only the kept components in its result.
  std::function<Expr(const Expr &)> keepOnly = [&](const Expr &e) -> Expr {
    if (auto l = e->as<Let>()) return Let::make(l->name, l->value, keepOnly(l->body));
    auto t = e->as<ir::Tuple>();
    if (kept.size() == 1) return t->elems[kept[0]];
    std::vector<Expr> es;
    for (int k : kept) es.push_back(t->elems[k]);
    return ir::Tuple::make(es);
  };
  Expr r;
  if (!kept.empty()) r = emit(hint, If::make(i->cond, keepOnly(i->thenE), keepOnly(i->elseE)));
  std::vector<Expr> es;
  size_t pos = 0;
  for (int k = 0; k < int(tt->elems.size()); ++k) {
    if (pos < kept.size() && kept[pos] == k) {
      es.push_back(kept.size() == 1 ? r : Proj::make(r, int(pos)));
      ++pos;
    } else {
      // (the flag is residual code already: bound, never evaluated again)
      Expr f = flag(k);
      es.push_back(!f ? tt->elems[k] : isAtom(f) ? f : emit(hint + "_flag", f));
    }
  }
  return makeTupleLike(tt->type, es);
}

// A write invalidates the remembered reads of what it writes (a call that
// may write: every remembered read).
// A size read before `v` resizes its array is not the size after (CSE
// takes sizes as values otherwise: an array's size never changes but there).
void PartialEvaluator::forgetSizesResizedBy(const Expr &v) {
  for (auto &a : resizedArrays(v)) cse_.erase(print(ir::Size::make(a)));
}

void PartialEvaluator::forgetReadsWrittenBy(const Expr &v) {
  const MemoryEffects fx = memoryEffects(v);
  forgetReadsOf(fx.writes, fx.calls);
}

// Before a loop body is evaluated: the remembered reads of what it writes
// (iteration k + 1 sees iteration k's writes). The body is not evaluated
// yet, so the arrays it names are source names: each is mapped to the
// residual variable it stands for (a tape `log_2` may be `log_1` by now).
void PartialEvaluator::forgetReadsWrittenInLoop(const Expr &body) {
  const MemoryEffects fx = memoryEffects(body);
  std::set<std::string> written = fx.writes;
  for (auto &w : fx.writes)
    if (auto it = env_.find(w); it != env_.end())
      if (auto v = rootArray(it->second)->as<Var>()) written.insert(v->name);
  forgetReadsOf(written, fx.calls);
}

void PartialEvaluator::forgetReadsOf(const std::set<std::string> &written, bool all) {
  for (auto it = memoryKeys_.begin(); it != memoryKeys_.end();) {
    if (all || written.count(it->second)) {
      cse_.erase(it->first);
      it = memoryKeys_.erase(it);
    } else {
      ++it;
    }
  }
}

// A loop's index and state stay variables (they change every iteration).
void PartialEvaluator::loopBinder(const std::string &name, const TypeP &t) {
  emitted_.insert(name);
  env_[name] = Var::make(name, t);
}

Expr PartialEvaluator::evaluate(const Expr &e) {
  switch (e->kind) {
  case Kind::Const: return e;
  case Kind::Throw: {
    std::vector<Expr> as;
    for (auto &a : e->as<Throw>()->args) as.push_back(reify(evaluate(a)));
    return Throw::make(e->as<Throw>()->thrown, e->type, std::move(as));
  }
  case Kind::Effect: {
    std::vector<Expr> as;
    for (auto &a : e->as<Effect>()->args) as.push_back(reify(evaluate(a)));
    return Effect::make(e->as<Effect>()->spelling, std::move(as));
  }
  case Kind::Resize:
    return ir::Resize::make(reify(evaluate(e->as<ir::Resize>()->array)), reify(evaluate(e->as<ir::Resize>()->size)));
  case Kind::Var: {
    auto it = env_.find(e->as<Var>()->name);
    return it == env_.end() ? e : it->second;
  }
  case Kind::Prim: return evaluatePrim(e->as<Prim>());
  case Kind::Let: {
    Expr c = e;
    while (auto l = c->as<Let>()) {
      Expr v = evaluate(l->value);
      // after `if c then () else throw`, c holds (hoist_throws.cpp)
      if (auto check = v->as<If>(); check && check->type->isUnit()) {
        bool thenThrows = letChainThrows(check->thenE), elseThrows = letChainThrows(check->elseE);
        if (thenThrows != elseThrows) learn(check->cond, elseThrows);
      }
      bind(l->name, v);
      c = l->body;
    }
    return evaluate(c);
  }
  case Kind::If: return evaluateIf(e->as<If>());
  case Kind::Tuple: {
    auto t = e->as<ir::Tuple>();
    std::vector<Expr> es;
    for (auto &x : t->elems) es.push_back(evaluate(x));
    if (Expr whole = etaTuple(es, t->type)) return whole;                // <π_0 v, .., π_n v> ~> v
    return makeTupleLike(t->type, es);
  }
  case Kind::Proj: {
    auto p = e->as<Proj>();
    Expr t = evaluate(p->tuple);
    if (auto tu = t->as<ir::Tuple>()) return tu->elems[p->index];      // π_i <e..> ~> e_i
    return Proj::make(atomize("t", t), p->index);
  }
  case Kind::Call: {
    auto c = e->as<Call>();
    std::vector<Expr> as;
    for (auto &a : c->args) as.push_back(reify(evaluate(a)));
    return Call::make(c->callee, std::move(as), c->type);
  }
  case Kind::Opaque: {
    auto c = e->as<Opaque>();
    std::vector<Expr> as;
    for (auto &a : c->args) as.push_back(reify(evaluate(a)));
    return Opaque::make(c->callee, std::move(as), c->type, c->read);
  }
  case Kind::Pullback: return evaluatePullback(e->as<Pullback>());
  case Kind::Lambda: return e;
  case Kind::App: return evaluateApp(e->as<App>());
  case Kind::Index: {
    auto x = e->as<ir::Index>();
    return ir::Index::make(reify(evaluate(x->array)), reify(evaluate(x->index)));
  }
  case Kind::Size: return ir::Size::make(reify(evaluate(e->as<ir::Size>()->array)));
  case Kind::View: {
    auto v = e->as<ir::View>();
    return ir::View::make(reify(evaluate(v->array)), reify(evaluate(v->offset)));
  }
  case Kind::NewArray:
    return NewArray::make(reify(evaluate(e->as<NewArray>()->size)), e->type->elem(), e->as<NewArray>()->scratch);
  case Kind::Store: return evaluateStore(e->as<Store>());
  case Kind::Fold: return evaluateFold(e->as<Fold>());
  case Kind::While: return evaluateWhile(e->as<While>());
  case Kind::Build: case Kind::Sum:
    throw IRError("optimise: build/sum are lowered to loops first (ir::lowerParallel)");
  }
  return e;
}

Expr PartialEvaluator::evaluatePrim(const Prim *p) {
  std::vector<Expr> as;
  for (auto &a : p->args) {
    Expr v = reify(evaluate(a));
    as.push_back(v->is<If>() ? emit("t", v) : v);
  }
  Expr r = simplify(p->op, std::move(as), p->type, strict());
  // CSE also for nested subexpressions: a partial derivative such as cos(t)
  // reuses the forward pass's value of cos(t).
  if (r->is<Prim>() && !memoryEffects(r).readsMemory) {
    auto it = cse_.find(print(r));
    if (it != cse_.end()) return Var::make(it->second, r->type);
  }
  return r;
}

Expr PartialEvaluator::evaluateIf(const If *i) {
  Expr c = reify(evaluate(i->cond));
  if (auto k = c->as<Const>()) return evaluate(k->ivalue ? i->thenE : i->elseE);
  if (auto v = c->as<Var>())
    if (auto known = facts_.find(v->name); known != facts_.end()) return evaluate(known->second ? i->thenE : i->elseE);
  Expr t = block(i->thenE, c, true), f = block(i->elseE, c, false);
  auto tk = t->as<Const>(), fk = f->as<Const>();
  if (tk && fk && t->type->isBool() && tk->ivalue != fk->ivalue)                // if c then true else false ~> c
    return tk->ivalue ? c : Prim::make(Op::Not, {c});
  if (isAtom(t) && alphaEqual(t, f)) return t;                          // if c then a else a ~> a
  if (auto inner = t->as<If>(); inner && alphaEqual(inner->cond, c)) t = inner->thenE; // if c then (if c then a ..) ..
  if (auto inner = f->as<If>(); inner && alphaEqual(inner->cond, c)) f = inner->elseE; // .. else (if c .. else b)
  return If::make(c, t, f);
}

Expr PartialEvaluator::evaluatePullback(const Pullback *c) {
  std::vector<Expr> as;
  for (auto &a : c->args) as.push_back(reify(evaluate(a)));
  Expr ct = reify(evaluate(c->cotangent));
  std::vector<Expr> bs;
  for (auto &b : c->buffers) bs.push_back(reify(evaluate(b)));
  // J^T g is linear in the result's cotangent and, when g writes arrays, in
  // their cotangents (in the buffers): only a g known to write nothing is
  // skipped for a zero result cotangent.
  // (with the helper's value, it runs whatever the cotangent)
  if (c->withValue) return Pullback::make(c->callee, std::move(as), ct, c->type, std::move(bs), true);
  bool onlyResult = c->buffers.empty() || pure_.count(c->callee);
  if (onlyResult && isZeroValue(ct)) return Const::zero(c->type);       // J^T g applied to 0 is 0
  Expr pb = Pullback::make(c->callee, std::move(as), ct, c->type, std::move(bs));
  // When the cotangent is 0 at run time (the losing side of a max, an
  // untaken path), skip the call.
  if (onlyResult && ct->type->isFloat() && !ct->is<Const>())
    return If::make(Prim::make(Op::Ne, {ct, Const::make(0.0, ct->type)}), pb, Const::zero(c->type));
  return pb;
}

Expr PartialEvaluator::evaluateStore(const Store *x) {
  Expr val = reify(evaluate(x->value));
  if (x->mode == Store::Mode::Add && isZeroValue(val)) return ir::Tuple::make({}); // a[i] += 0 ~> ()
  return Store::make(reify(evaluate(x->array)), reify(evaluate(x->index)), val, x->mode, x->path);
}

Expr PartialEvaluator::evaluateFold(const Fold *f) {
  Expr lo = reify(evaluate(f->lo)), hi = reify(evaluate(f->hi)), init = reify(evaluate(f->init));
  loopBinder(f->index, Type::i64());
  loopBinder(f->state, f->init->type);
  forgetReadsWrittenInLoop(f->body);
  Expr body = block(f->body);
  return invariantState(zeroState(Fold::make(lo, hi, init, f->index, f->state, body, f->reversed)));
}

Expr PartialEvaluator::evaluateWhile(const While *w) {
  Expr init = reify(evaluate(w->init));
  loopBinder(w->state, w->init->type);
  forgetReadsWrittenInLoop(w->body);
  Expr cond = block(w->cond), body = block(w->body);
  return While::make(init, w->state, cond, body);
}

// β: the arguments are bound to the parameters, the body evaluated there.
Expr PartialEvaluator::evaluateApp(const App *a) {
  Expr f = evaluate(a->fn);
  auto lam = f->as<Lambda>();
  if (!lam) throw IRError("optimise: application of an unknown function");
  std::vector<Expr> vs;
  for (auto &x : a->args) vs.push_back(evaluate(x));
  for (size_t k = 0; k < vs.size(); ++k) bind(lam->params[k].name, vs[k]);
  ++continuationDepth_;
  Expr r = evaluate(lam->body);
  --continuationDepth_;
  return r;
}

} // namespace unfad::opt

namespace unfad::opt {

ir::Expr partialEvaluate(const ir::Expr &e, const PassContext &context, bool *changed) {
  ir::Expr r = PartialEvaluator(e, context.reserved, context.pureCallees).run(e);
  if (changed) *changed = r != e;
  return r;
}

} // namespace unfad::opt
