// Recognition of parallel loop shapes and the build/sum rewrite rules (see
// the header for the rules). Binder names are unique in the front end's
// program, which keeps substitution and the scope checks simple.
#include "unfad/parallel/parallel.h"
#include "unfad/ir/effects.h"
#include "unfad/ir/mutator.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <unordered_map>

namespace unfad::parallel {

using namespace unfad::ir;

namespace {

using Lets = std::vector<const Let *>;

// A let chain: its lets and the expression at its end.
Expr chain(const Expr &e, Lets &lets) {
  Expr cur = e;
  while (auto l = cur->as<Let>()) {
    lets.push_back(l);
    cur = l->body;
  }
  return cur;
}

Expr rewrap(const Lets &lets, Expr tail) {
  for (auto it = lets.rbegin(); it != lets.rend(); ++it) tail = Let::make((*it)->name, (*it)->value, tail);
  return tail;
}

bool isVar(const Expr &e, const std::string &name) {
  auto v = e->as<Var>();
  return v && v->name == name;
}

bool sameInt(const Expr &a, const Expr &b) {
  if (auto x = a->as<Var>(), y = b->as<Var>(); x && y) return x->name == y->name;
  if (auto x = a->as<Const>(), y = b->as<Const>(); x && y) return !x->type->isFloat() && !y->type->isFloat() && x->ivalue == y->ivalue;
  return false;
}

class Recognize : public Mutator {
public:
  explicit Recognize(const Program &p) : prog_(p) {}

private:
  const Program &prog_;
  std::unordered_map<std::string, Expr> consts_; // let-bound constants (`double s = 0;`)

  bool isZero(const Expr &e) const {
    Expr v = e;
    if (auto x = e->as<Var>()) {
      auto it = consts_.find(x->name);
      if (it == consts_.end()) return false;
      v = it->second;
    }
    auto c = v->as<Const>();
    return c && c->type->isFloat() && c->fvalue == 0.0 && !std::signbit(c->fvalue);
  }

  Expr visit(const Let *n, const Expr &self) override {
    Expr v = mutate(n->value);
    if (v->is<Const>()) consts_[n->name] = v;
    Expr b = mutate(n->body);
    if (auto na = v->as<NewArray>())
      if (Expr r = build(n->name, na, b)) return r;
    return v == n->value && b == n->body ? self : Let::make(n->name, v, b);
  }

  // let a = new[n] in (lets not mentioning a) let _ = fold i in [0, n): a[i] = e(i) in rest
  //   ~> (the same lets) let a = build n (i -> e(i)) in rest
  Expr build(const std::string &a, const NewArray *na, const Expr &body) {
    Lets before;
    Expr cur = body;
    const Let *fill = nullptr;
    while (auto l = cur->as<Let>()) {
      if (countUses(l->value, a) > 0) {
        fill = l;
        break;
      }
      before.push_back(l);
      cur = l->body;
    }
    if (!fill) return nullptr;
    auto f = fill->value->as<Fold>();
    if (!f || f->reversed || !f->init->type->isUnit() || !sameInt(f->lo, Const::makeInt(0)) || !sameInt(f->hi, na->size))
      return nullptr;
    Lets lets;
    Expr tail = chain(f->body, lets);
    if (!tail->type->isUnit() || countUses(f->body, f->state) > 0) return nullptr;
    Lets kept;
    Expr elem;
    for (auto l : lets) {
      auto st = l->value->as<Store>();
      if (st && !elem && isVar(st->array, a) && isVar(st->index, f->index) && st->mode == Store::Mode::Set &&
          countUses(st->value, a) == 0 && !hasEffects(st->value, &prog_)) {
        elem = st->value;
        continue;
      }
      if (hasEffects(l->value, &prog_) || countUses(l->value, a) > 0) return nullptr;
      kept.push_back(l);
    }
    if (!elem || !elem->type->isScalar() || !sameType(elem->type, na->type->elem())) return nullptr;
    return rewrap(before, Let::make(a, Build::make(na->size, f->index, rewrap(kept, elem)), fill->body));
  }

  // fold i in [lo, hi) from s = 0: (lets) s + e(i)  ~>  sum lo hi (i -> (lets) e(i))
  Expr visit(const Fold *n, const Expr &self) override {
    Expr e = Mutator::visit(n, self);
    auto f = e->as<Fold>();
    if (!f || f->reversed || !f->init->type->isFloat() || !isZero(f->init) || hasEffects(f->body, &prog_)) return e;
    Lets lets;
    Expr tail = chain(f->body, lets);
    // The state and the lets that only rename it.
    std::set<std::string> state{f->state};
    Lets kept;
    for (auto l : lets) {
      if (auto v = l->value->as<Var>(); v && state.count(v->name)) state.insert(l->name);
      else kept.push_back(l);
    }
    // The accumulation: the tail, or the let the tail names.
    Expr acc = tail;
    const Let *accLet = nullptr;
    if (auto v = tail->as<Var>())
      for (auto l : kept)
        if (l->name == v->name) accLet = l, acc = l->value;
    auto p = acc->as<Prim>();
    if (!p || (p->op != Op::Add && p->op != Op::Sub)) return e;
    auto isState = [&](const Expr &x) { auto v = x->as<Var>(); return v && state.count(v->name); };
    Expr term;
    if (isState(p->args[0])) term = p->op == Op::Add ? p->args[1] : Prim::make(Op::Neg, {p->args[1]});
    else if (p->op == Op::Add && isState(p->args[1])) term = p->args[0];
    else return e;
    // The state is read there and nowhere else.
    Lets rest;
    for (auto l : kept)
      if (l != accLet) rest.push_back(l);
    Expr newBody = rewrap(rest, term);
    for (auto &s : state)
      if (countUses(newBody, s) > 0) return e;
    if (accLet && countUses(newBody, accLet->name) > 0) return e;
    return Sum::make(f->lo, f->hi, f->index, newBody);
  }
};

// Names of the arrays a function body may write: store targets and arrays
// passed to a callee that writes that parameter (or to an unknown one).
std::set<std::string> writtenArrays(const Expr &e, const Program &p) { return memoryEffects(e, &p).writes; }

// Map fusion. A build's element is inlined at its one read b[i] when that
// read is directly inside a sum/build over i at the build's own loop depth
// (so every element is still computed once per build) and the arrays the
// element reads are never written (so it reads the same values there).
class Fusion {
public:
  Fusion(const Expr &body, const Program &p) : written_(writtenArrays(body, p)) { scan(body); }

  Expr apply(const Expr &e) {
    struct M : Mutator {
      Fusion *self;
      Expr visit(const Let *n, const Expr &me) override {
        if (self->fused_.count(n->name)) return mutate(n->body);
        return Mutator::visit(n, me);
      }
      Expr visit(const Index *n, const Expr &me) override {
        auto a = n->array->as<Var>();
        if (a && self->fused_.count(a->name)) {
          auto b = self->fused_.at(a->name);
          return substitute(mutate(b->body), b->index, n->index);
        }
        return Mutator::visit(n, me);
      }
    } m;
    m.self = this;
    return fused_.empty() ? e : m.mutate(e);
  }

private:
  std::set<std::string> written_;
  struct Producer {
    const Build *build;
    std::vector<const Node *> loops; // enclosing loop constructs
  };
  struct Use {
    std::string index; // the read's index, when a variable
    std::vector<const Node *> loops;
  };
  std::unordered_map<std::string, Producer> producers_;
  std::unordered_map<std::string, std::vector<Use>> uses_; // every free occurrence of an array variable
  std::unordered_map<std::string, const Build *> fused_;
  std::vector<const Node *> loops_;

  static std::string binder(const Node *n) {
    if (auto b = n->as<Build>()) return b->index;
    if (auto s = n->as<Sum>()) return s->index;
    return "";
  }

  bool readsOnlyConstantArrays(const Expr &e) const {
    for (auto &v : freeVars(e))
      if (written_.count(v)) return false;
    return true;
  }

  void scan(const Expr &e) {
    struct S : Visitor {
      Fusion *self;
      void visit(const Var *n) override {
        if (n->type->isArray()) self->uses_[n->name].push_back({"", self->loops_});
      }
      void visit(const Index *n) override {
        if (auto a = n->array->as<Var>()) {
          auto i = n->index->as<Var>();
          self->uses_[a->name].push_back({i ? i->name : "", self->loops_});
          visitExpr(n->index);
          return;
        }
        Visitor::visit(n);
      }
      void visit(const Let *n) override {
        if (auto b = n->value->as<Build>()) self->producers_[n->name] = {b, self->loops_};
        Visitor::visit(n);
      }
      void nest(const Node *n, const std::vector<Expr> &outer, const std::vector<Expr> &inner) {
        for (auto &x : outer) visitExpr(x);
        self->loops_.push_back(n);
        for (auto &x : inner) visitExpr(x);
        self->loops_.pop_back();
      }
      void visit(const Build *n) override { nest(n, {n->size}, {n->body}); }
      void visit(const Sum *n) override { nest(n, {n->lo, n->hi}, {n->body}); }
      void visit(const Fold *n) override { nest(n, {n->lo, n->hi, n->init}, {n->body}); }
      void visit(const While *n) override { nest(n, {n->init}, {n->cond, n->body}); }
    } s;
    s.self = this;
    s.visitExpr(e);
    for (auto &[name, p] : producers_) {
      auto it = uses_.find(name);
      if (it == uses_.end() || it->second.size() != 1) continue;
      const Use &u = it->second.front();
      if (u.index.empty() || u.loops.size() != p.loops.size() + 1) continue;
      if (!std::equal(p.loops.begin(), p.loops.end(), u.loops.begin())) continue;
      if (binder(u.loops.back()) != u.index || !readsOnlyConstantArrays(p.build->body)) continue;
      fused_[name] = p.build;
    }
    // A build inlined into another build's element must itself stay put
    // while that one moves: fuse chains one link per run.
    for (auto it = fused_.begin(); it != fused_.end();) {
      bool inner = false;
      for (auto &[other, b] : fused_)
        if (other != it->first && countUses(b->body, it->first) > 0) inner = true;
      it = inner ? fused_.erase(it) : std::next(it);
    }
  }
};

// sum of a one-hot / constant element; unused builds.
class Rules : public Mutator {
  Expr visit(const Sum *n, const Expr &self) override {
    Expr e = Mutator::visit(n, self);
    auto s = e->as<Sum>();
    if (!s) return e;
    const TypeP &t = s->type;
    // sum lo hi (i -> c) ~> max(hi - lo, 0) * c    (0 for c = 0)
    if (auto c = s->body->as<Const>()) {
      if (c->isZero()) return s->body;
      Expr n = Prim::make(Op::Sub, {s->hi, s->lo});
      n = If::make(Prim::make(Op::Lt, {s->lo, s->hi}), n, Const::makeInt(0));
      return c->isOne() ? Prim::makeCast(n, t) : Prim::make(Op::Mul, {Prim::makeCast(n, t), s->body});
    }
    // sum lo hi (i -> if i == k then x else 0) ~> if lo <= k < hi then x[k/i] else 0
    if (auto c = s->body->as<If>()) {
      auto eq = c->cond->as<Prim>();
      auto z = c->elseE->as<Const>();
      if (eq && eq->op == Op::Eq && z && z->isZero()) {
        Expr k;
        if (isVar(eq->args[0], s->index) && countUses(eq->args[1], s->index) == 0) k = eq->args[1];
        if (isVar(eq->args[1], s->index) && countUses(eq->args[0], s->index) == 0) k = eq->args[0];
        if (k && k->type->isInt()) {
          Expr in = Prim::make(Op::And, {Prim::make(Op::Le, {s->lo, k}), Prim::make(Op::Lt, {k, s->hi})});
          return If::make(in, substitute(c->thenE, s->index, k), Const::zero(t));
        }
      }
    }
    return e;
  }
  Expr visit(const Let *n, const Expr &self) override {
    Expr b = mutate(n->body);
    if (n->value->is<Build>() && countUses(b, n->name) == 0) return b; // pure: an unused build goes
    Expr v = mutate(n->value);
    return v == n->value && b == n->body ? self : Let::make(n->name, v, b);
  }
};

} // namespace

Expr recognize(const Expr &body, const Program &p) {
  Expr e = Recognize(p).mutate(body);
  for (int round = 0; round < 4; ++round) {
    Expr fused = Fusion(e, p).apply(e);
    if (fused == e) break;
    e = fused;
  }
  return Rules().mutate(e);
}

Program recognize(const Program &p) {
  Program out = indexDeterminedState(countedWhileLoops(p));
  for (auto &f : out.functions) f.body = recognize(f.body, out);
  return out;
}

} // namespace unfad::parallel
