#include "unfad/ir/mutator.h"

namespace unfad::ir {

Expr Mutator::mutate(const Expr &e) {
  switch (e->kind) {
#define UNFAD_X(N) case Kind::N: return visit(static_cast<const N *>(e.get()), e);
    UNFAD_IR_NODES(UNFAD_X)
#undef UNFAD_X
  }
  return e;
}

std::vector<Expr> Mutator::mutateAll(const std::vector<Expr> &es, bool &changed) {
  std::vector<Expr> out;
  out.reserve(es.size());
  for (auto &e : es) {
    out.push_back(mutate(e));
    changed |= out.back() != e;
  }
  return out;
}

Expr Mutator::visit(const Const *, const Expr &self) { return self; }
Expr Mutator::visit(const Var *, const Expr &self) { return self; }
Expr Mutator::visit(const Prim *n, const Expr &self) {
  bool ch = false;
  auto as = mutateAll(n->args, ch);
  if (!ch) return self;
  return n->op == Op::Cast ? Prim::makeCast(as[0], n->type) : Prim::make(n->op, std::move(as));
}
Expr Mutator::visit(const Let *n, const Expr &self) {
  Expr v = mutate(n->value), b = mutate(n->body);
  return v == n->value && b == n->body ? self : Let::make(n->name, v, b);
}
Expr Mutator::visit(const If *n, const Expr &self) {
  Expr c = mutate(n->cond), t = mutate(n->thenE), e = mutate(n->elseE);
  return c == n->cond && t == n->thenE && e == n->elseE ? self : If::make(c, t, e);
}
Expr Mutator::visit(const Tuple *n, const Expr &self) {
  bool ch = false;
  auto es = mutateAll(n->elems, ch);
  if (!ch) return self;
  return n->type->isStruct() ? Tuple::makeStruct(n->type, std::move(es)) : Tuple::make(std::move(es));
}
Expr Mutator::visit(const Proj *n, const Expr &self) {
  Expr t = mutate(n->tuple);
  return t == n->tuple ? self : Proj::make(t, n->index);
}
Expr Mutator::visit(const Call *n, const Expr &self) {
  bool ch = false;
  auto as = mutateAll(n->args, ch);
  return ch ? Call::make(n->callee, std::move(as), n->type) : self;
}
Expr Mutator::visit(const Pullback *n, const Expr &self) {
  bool ch = false;
  auto as = mutateAll(n->args, ch);
  Expr ct = mutate(n->cotangent);
  ch |= ct != n->cotangent;
  auto bs = mutateAll(n->buffers, ch);
  return ch ? Pullback::make(n->callee, std::move(as), ct, n->type, std::move(bs)) : self;
}
Expr Mutator::visit(const Index *n, const Expr &self) {
  Expr a = mutate(n->array), i = mutate(n->index);
  return a == n->array && i == n->index ? self : Index::make(a, i);
}
Expr Mutator::visit(const Size *n, const Expr &self) {
  Expr a = mutate(n->array);
  return a == n->array ? self : Size::make(a);
}
Expr Mutator::visit(const NewArray *n, const Expr &self) {
  Expr s = mutate(n->size);
  return s == n->size ? self : NewArray::make(s, n->type->elem(), n->scratch);
}
Expr Mutator::visit(const Store *n, const Expr &self) {
  Expr a = mutate(n->array), i = mutate(n->index), v = mutate(n->value);
  return a == n->array && i == n->index && v == n->value ? self : Store::make(a, i, v, n->mode, n->path);
}
Expr Mutator::visit(const While *n, const Expr &self) {
  Expr i0 = mutate(n->init), c = mutate(n->cond), b = mutate(n->body);
  return i0 == n->init && c == n->cond && b == n->body ? self : While::make(i0, n->state, c, b);
}
Expr Mutator::visit(const Fold *n, const Expr &self) {
  Expr l = mutate(n->lo), h = mutate(n->hi), i0 = mutate(n->init), b = mutate(n->body);
  return l == n->lo && h == n->hi && i0 == n->init && b == n->body
             ? self
             : Fold::make(l, h, i0, n->index, n->state, b, n->reversed);
}
Expr Mutator::visit(const Build *n, const Expr &self) {
  Expr sz = mutate(n->size), b = mutate(n->body);
  return sz == n->size && b == n->body ? self : Build::make(sz, n->index, b);
}
Expr Mutator::visit(const Sum *n, const Expr &self) {
  Expr l = mutate(n->lo), h = mutate(n->hi), b = mutate(n->body);
  return l == n->lo && h == n->hi && b == n->body ? self : Sum::make(l, h, n->index, b);
}
Expr Mutator::visit(const Lambda *n, const Expr &self) {
  Expr b = mutate(n->body);
  return b == n->body ? self : Lambda::make(n->params, b);
}
Expr Mutator::visit(const App *n, const Expr &self) {
  bool ch = false;
  Expr f = mutate(n->fn);
  ch |= f != n->fn;
  auto as = mutateAll(n->args, ch);
  return ch ? App::make(f, std::move(as)) : self;
}

void Visitor::visitExpr(const Expr &e) {
  switch (e->kind) {
#define UNFAD_X(N) case Kind::N: visit(static_cast<const N *>(e.get())); return;
    UNFAD_IR_NODES(UNFAD_X)
#undef UNFAD_X
  }
}

void Visitor::visit(const Const *) {}
void Visitor::visit(const Var *) {}
void Visitor::visit(const Prim *n) { for (auto &a : n->args) visitExpr(a); }
void Visitor::visit(const Let *n) { visitExpr(n->value); visitExpr(n->body); }
void Visitor::visit(const If *n) { visitExpr(n->cond); visitExpr(n->thenE); visitExpr(n->elseE); }
void Visitor::visit(const Tuple *n) { for (auto &a : n->elems) visitExpr(a); }
void Visitor::visit(const Proj *n) { visitExpr(n->tuple); }
void Visitor::visit(const Call *n) { for (auto &a : n->args) visitExpr(a); }
void Visitor::visit(const Pullback *n) {
  for (auto &a : n->args) visitExpr(a);
  visitExpr(n->cotangent);
  for (auto &b : n->buffers) visitExpr(b);
}
void Visitor::visit(const While *n) { visitExpr(n->init); visitExpr(n->cond); visitExpr(n->body); }
void Visitor::visit(const Index *n) { visitExpr(n->array); visitExpr(n->index); }
void Visitor::visit(const Size *n) { visitExpr(n->array); }
void Visitor::visit(const NewArray *n) { visitExpr(n->size); }
void Visitor::visit(const Store *n) { visitExpr(n->array); visitExpr(n->index); visitExpr(n->value); }
void Visitor::visit(const Fold *n) { visitExpr(n->lo); visitExpr(n->hi); visitExpr(n->init); visitExpr(n->body); }
void Visitor::visit(const Build *n) { visitExpr(n->size); visitExpr(n->body); }
void Visitor::visit(const Sum *n) { visitExpr(n->lo); visitExpr(n->hi); visitExpr(n->body); }
void Visitor::visit(const Lambda *n) { visitExpr(n->body); }
void Visitor::visit(const App *n) { visitExpr(n->fn); for (auto &a : n->args) visitExpr(a); }

} // namespace unfad::ir
