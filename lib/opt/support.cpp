#include "support.h"
#include "unfad/ir/mutator.h"

#include <algorithm>

namespace unfad::opt {

using namespace unfad::ir;

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

bool hasCall(const Expr &e) {
  struct FindCall : Visitor {
    bool found = false;
    void visit(const Call *) override { found = true; }
  } finder;
  finder.visitExpr(e);
  return finder.found;
}

bool readsMemory(const Expr &e) {
  struct FindRead : Visitor {
    bool found = false;
    void visit(const Index *) override { found = true; }
    void visit(const Call *n) override {
      for (auto &a : n->args) found |= a->type->isArray();
      Visitor::visit(n);
    }
  } finder;
  finder.visitExpr(e);
  return finder.found;
}

void arraysTouched(const Expr &e, std::unordered_set<std::string> *read, std::unordered_set<std::string> *written) {
  struct Touched : Visitor {
    std::unordered_set<std::string> *read, *written;
    static void add(std::unordered_set<std::string> *s, const Expr &a) {
      if (auto v = a->as<Var>(); v && s) s->insert(v->name);
    }
    void visit(const Index *n) override { add(read, n->array); Visitor::visit(n); }
    void visit(const Store *n) override { add(written, n->array); visitExpr(n->index); visitExpr(n->value); }
    void visit(const Pullback *n) override {
      for (auto &b : n->buffers) add(written, b);
      for (auto &a : n->args) if (a->type->isArray()) add(read, a);
      Visitor::visit(n);
    }
    void visit(const Call *n) override {
      for (auto &a : n->args) if (a->type->isArray()) { add(read, a); add(written, a); }
      Visitor::visit(n);
    }
  } touched;
  touched.read = read;
  touched.written = written;
  touched.visitExpr(e);
}

bool conflicts(const Expr &value, const Expr &later) {
  std::unordered_set<std::string> read, written;
  arraysTouched(value, &read, nullptr);
  if (read.empty()) return false;
  arraysTouched(later, nullptr, &written);
  for (auto &a : read)
    if (written.count(a)) return true;
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

Lets letChain(const Expr &e, Expr &tail) {
  Lets lets;
  tail = e;
  while (auto l = tail->as<Let>()) {
    lets.push_back({l->name, l->value});
    tail = l->body;
  }
  return lets;
}

Expr wrapLets(const Lets &lets, Expr body) {
  for (size_t k = lets.size(); k-- > 0;) body = Let::make(lets[k].first, lets[k].second, body);
  return body;
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
  return wrapLets(lets, body);
}

} // namespace unfad::opt
