// Dead code elimination: drops lets whose variable is never used and that
// write nothing, and stores into local arrays nothing reads. Names are
// unique, so one use count per name suffices.
#include "support.h"
#include "unfad/opt/passes.h"
#include "unfad/ir/mutator.h"

#include <unordered_map>

namespace unfad::opt {

using namespace unfad::ir;

namespace {

class DeadCode {
public:
  Expr run(const Expr &e) {
    findWriteOnlyArrays(e);
    return sweep(e);
  }

private:
  std::unordered_map<std::string, int> uses_;
  std::unordered_set<std::string> writeOnly_; // local arrays nothing reads: their stores are dead

  void findWriteOnlyArrays(const Expr &root) {
    struct Accesses : Visitor {
      std::unordered_set<std::string> local, read;
      void visit(const Let *n) override {
        if (n->value->is<NewArray>()) local.insert(n->name);
        Visitor::visit(n);
      }
      void visit(const Var *n) override { read.insert(n->name); }
      void visit(const Store *n) override { // the target of a store is not a read
        if (!n->array->is<Var>()) visitExpr(n->array);
        visitExpr(n->index);
        visitExpr(n->value);
      }
    } accesses;
    accesses.visitExpr(root);
    for (auto &n : accesses.local)
      if (!accesses.read.count(n)) writeOnly_.insert(n);
  }

  bool deadStore(const Expr &v) const {
    auto st = v->as<Store>();
    auto arr = st ? st->array->as<Var>() : nullptr;
    return arr && writeOnly_.count(arr->name);
  }

  // Bottom-up: a let's uses are all counted (they follow it) before it is
  // kept or dropped.
  Expr sweepChain(const Expr &e) {
    std::vector<const Let *> chain;
    Expr c = e;
    while (auto l = c->as<Let>()) {
      chain.push_back(l);
      c = l->body;
    }
    Expr body = sweep(c);
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
      const Expr &v = (*it)->value;
      if (deadStore(v)) continue;
      if (uses_[(*it)->name] == 0 && !mayWrite(v)) continue;
      body = Let::make((*it)->name, sweep(v), body);
    }
    return body;
  }

  Expr sweep(const Expr &e) {
    if (e->is<Let>()) return sweepChain(e);
    if (auto f = e->as<Fold>()) {
      Expr b = sweep(f->body), i0 = sweep(f->init), l = sweep(f->lo), h = sweep(f->hi);
      return b == f->body && i0 == f->init && l == f->lo && h == f->hi ? e
                                                                       : Fold::make(l, h, i0, f->index, f->state, b, f->reversed);
    }
    if (auto w = e->as<While>()) {
      Expr b = sweep(w->body), c = sweep(w->cond), i0 = sweep(w->init);
      return b == w->body && c == w->cond && i0 == w->init ? e : While::make(i0, w->state, c, b);
    }
    if (auto t = e->as<ir::Tuple>()) {
      bool changed = false;
      std::vector<Expr> es;
      for (auto &x : t->elems) {
        es.push_back(sweep(x));
        changed |= es.back() != x;
      }
      if (!changed) return e;
      return t->type->isStruct() ? ir::Tuple::makeStruct(t->type, es) : ir::Tuple::make(es);
    }
    if (auto i = e->as<If>()) {
      Expr t = sweep(i->thenE), f = sweep(i->elseE), c = sweep(i->cond);
      return t == i->thenE && f == i->elseE && c == i->cond ? e : If::make(c, t, f);
    }
    // Leaves and flat expressions: count their variables.
    for (auto &v : freeVars(e)) ++uses_[v];
    return e;
  }
};

} // namespace

Expr deadCode(const Expr &e, const PassContext &, bool *changed) {
  Expr r = DeadCode().run(e);
  if (changed) *changed = r != e;
  return r;
}

} // namespace unfad::opt
