// Upper bounds of integer expressions over the iterations of a counted loop,
// for a scratch buffer (a tape) whose size depends on the loop index: the
// triangular `for row in [col + 1, d)` inside `for col in [0, d)` tapes
// d - col - 1 values per column. Allocated once before the loop at the
// largest size any iteration asks for, and reused by every iteration (a
// scratch buffer is written before it is read, so a larger one serves).
// The bound is found by monotonicity: the index enters through +, -,
// negation and multiplication by constants only, and an `if` is bounded by
// the larger of its branches.
#include "support.h"

#include <algorithm>

namespace unfad::opt {

using namespace unfad::ir;

namespace {

Expr larger(const Expr &a, const Expr &b) { return If::make(Prim::make(Op::Lt, {a, b}), b, a); }
Expr smaller(const Expr &a, const Expr &b) { return If::make(Prim::make(Op::Lt, {a, b}), a, b); }

struct Bounder {
  const Fold &loop;
  const std::unordered_map<std::string, Expr> &defs;
  const std::unordered_set<std::string> &inner;
  int depth = 0;

  // The largest (`upper`) or smallest value of `e` over the iterations, or
  // null when it is not known.
  Expr bound(const Expr &e, bool upper) {
    if (++depth > 64) return nullptr; // a pathological chain of definitions
    if (!e->type->isInt()) return nullptr;
    if (e->is<Const>()) return e;
    if (auto v = e->as<Var>()) return boundVar(*v, e, upper);
    auto p = e->as<Prim>();
    if (auto i = e->as<If>()) {
      Expr t = bound(i->thenE, upper), f = t ? bound(i->elseE, upper) : nullptr;
      return f ? (upper ? larger(t, f) : smaller(t, f)) : nullptr;
    }
    if (!p) return nullptr;
    // (ifs, not a switch: every other operator has no bound here)
    if (p->op == Op::Add) return both(p->args[0], upper, p->args[1], upper, Op::Add);
    if (p->op == Op::Sub) return both(p->args[0], upper, p->args[1], !upper, Op::Sub);
    if (p->op == Op::Mul) return scaled(*p, upper);
    if (p->op != Op::Neg) return nullptr;
    Expr a = bound(p->args[0], !upper);
    return a ? Prim::make(Op::Neg, {a}) : nullptr;
  }

  Expr boundVar(const Var &v, const Expr &e, bool upper) {
    if (v.name == loop.index)
      return upper ? Prim::make(Op::Sub, {loop.hi, Const::makeInt(1)}) : loop.lo;
    auto d = defs.find(v.name);
    if (d != defs.end()) return bound(d->second, upper);
    return inner.count(v.name) ? nullptr : e; // invariant: itself
  }
  Expr both(const Expr &a, bool ua, const Expr &b, bool ub, Op op) {
    Expr x = bound(a, ua), y = x ? bound(b, ub) : nullptr;
    return y ? Prim::make(op, {x, y}) : nullptr;
  }
  // c * e or e * c for a constant c: its sign says which bound of e.
  Expr scaled(const Prim &p, bool upper) {
    for (int k = 0; k < 2; ++k) {
      auto c = p.args[size_t(k)]->as<Const>();
      if (!c) continue;
      Expr b = bound(p.args[size_t(1 - k)], c->ivalue >= 0 ? upper : !upper);
      return b ? Prim::make(Op::Mul, {p.args[size_t(k)], b}) : nullptr;
    }
    return nullptr;
  }
};

} // namespace

// The bound is clamped at 0 (a loop that runs no time, hi - 1 < lo, may
// give a negative one): so a branch of at most 0 (`n = t < d ? d - t : 0`)
// needs no bound of its own.
Expr loopSizeBound(const Fold &loop, const Expr &size, const std::unordered_map<std::string, Expr> &defs,
                   const std::unordered_set<std::string> &inner) {
  Expr e = size;
  for (int k = 0; k < 64; ++k) {
    if (auto v = e->as<Var>(); v && defs.count(v->name)) {
      e = defs.at(v->name);
      continue;
    }
    auto i = e->as<If>();
    auto t = i ? i->thenE->as<Const>() : nullptr, f = i ? i->elseE->as<Const>() : nullptr;
    if (f && f->ivalue <= 0) e = i->thenE;
    else if (t && t->ivalue <= 0) e = i->elseE;
    else break;
  }
  Bounder b{loop, defs, inner};
  Expr upper = b.bound(e, true);
  if (!upper) return nullptr;
  if (auto c = upper->as<Const>()) return Const::makeInt(std::max<int64_t>(c->ivalue, 0));
  return larger(Const::makeInt(0), upper);
}

} // namespace unfad::opt
