#include "support.h"
#include "unfad/ir/mutator.h"
#include "unfad/opt/passes.h"

#include <algorithm>

namespace unfad::opt {

using namespace unfad::ir;

void ArrayUses::visit(const ir::Index *n) {
  if (!n->array->is<Var>()) visitExpr(n->array);
  visitExpr(n->index);
}

void ArrayUses::visit(const Store *n) {
  visitExpr(n->index);
  visitExpr(n->value);
  if (auto a = n->array->as<Var>()) onStore(n, a->name);
  else visitExpr(n->array);
}

void ScalarLets::define(const std::string &name, const Expr &value) {
  if (value->type->isScalar() && !memoryEffects(value).readsMemory) values_[name] = value;
}

Expr ScalarLets::resolve(Expr e) const {
  for (int round = 0; round < 4; ++round)
    for (auto &v : freeVars(e))
      if (auto it = values_.find(v); it != values_.end()) e = substitute(e, v, it->second);
  return e;
}

std::optional<long long> ScalarLets::constant(const Expr &e) const {
  auto c = resolve(e)->as<Const>();
  return c ? std::optional<long long>(c->ivalue) : std::nullopt;
}

bool touches(const Expr &e, const std::string &array) { return memoryEffects(e).touches(array); }

const Store *storeInto(const Expr &e, const std::string &array) {
  auto s = e->as<Store>();
  auto v = s ? s->array->as<Var>() : nullptr;
  return v && v->name == array && s->path.empty() ? s : nullptr;
}

bool isIndexOf(const Expr &index, const Fold &f) {
  auto v = index->as<Var>();
  return v && v->name == f.index;
}

MemoryEffects effectsKnowingCallees(const Expr &e, const PassContext &context) {
  MemoryEffects fx = memoryEffects(e);
  if (auto c = e->as<Call>(); c && context.pureCallees.count(c->callee) && !fx.raises) {
    fx.writes.clear();
    fx.writesMemory = fx.stores = false;
  }
  return fx;
}

bool isConst(const Expr &e, double v) {
  auto c = e->as<Const>();
  return c && c->type->isFloat() && c->fvalue == v;
}

bool isZeroValue(const Expr &e) {
  if (auto c = e->as<Const>()) return c->type->isFloat() && c->fvalue == 0.0;
  if (auto t = e->as<ir::Tuple>()) {
    for (auto &x : t->elems)
      if (!isZeroValue(x)) return false;
    return true;
  }
  return false;
}

bool isAtom(const Expr &e) {
  if (e->is<Var>() || e->is<Const>()) return true;
  if (auto p = e->as<Proj>()) return isAtom(p->tuple);
  if (auto t = e->as<ir::Tuple>()) return std::all_of(t->elems.begin(), t->elems.end(), isAtom);
  return false;
}

bool isLoopIndex(const Expr &i, const std::string &k) {
  if (auto v = i->as<Var>()) return v->name == k;
  auto p = i->as<Prim>();
  if (!p || p->op != Op::Add) return false;
  for (int z = 0; z < 2; ++z)
    if (auto c = p->args[z]->as<Const>(); c && c->type->isInt() && c->ivalue == 0 && isLoopIndex(p->args[1 - z], k))
      return true;
  return false;
}

std::unordered_set<std::string> localArrays(const Expr &e) {
  struct Local : Visitor {
    std::unordered_set<std::string> names;
    void visit(const Let *n) override {
      if (n->value->is<NewArray>()) names.insert(n->name);
      Visitor::visit(n);
    }
  } local;
  local.visitExpr(e);
  return local.names;
}

Expr BlockRewriter::rewrite(const Expr &e) {
  if (auto i = e->as<If>()) return If::make(i->cond, rewrite(i->thenE), rewrite(i->elseE));
  if (auto f = e->as<Fold>()) return Fold::make(f->lo, f->hi, f->init, f->index, f->state, rewrite(f->body), f->reversed);
  if (auto w = e->as<While>()) return While::make(w->init, w->state, w->cond, rewrite(w->body));
  if (!e->is<Let>()) return e;
  Lets lets;
  Expr c = e;
  while (auto l = c->as<Let>()) {
    lets.push_back({l->name, rewrite(l->value)});
    c = l->body;
  }
  Expr body = rewrite(c);
  chain(lets, body);
  return zipLets(lets, body);
}

} // namespace unfad::opt
