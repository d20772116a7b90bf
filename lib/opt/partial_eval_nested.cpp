// Sharing a costly subexpression that first appears nested, with a later
// let computing it alone:
//
//   let cx = cos t; let d_cx = -(sin t) * dt; let sx = sin t
//     ~>  let cx = cos t; let sx = sin t; let d_cx = -sx * dt
//
// Forward mode meets this at every rotation: the tangent of cos t needs
// sin t before the primal computes it. CSE (partial_eval.cpp) only shares a
// later value with an earlier let, so the later let moves up to the first
// let that needs its value. The move is sound because the value is pure
// (no memory read, no effect) and its free variables were in scope there:
// the earlier let mentioned the same expression.
#include "partial_eval.h"

#include <functional>

namespace unfad::opt {

using namespace unfad::ir;

namespace {

// Worth a let of its own: a call to a math function. (Arithmetic is as cheap
// as the load that would share it.)
bool costly(Op op) {
  switch (op) {
  case Op::Sin: case Op::Cos: case Op::Tan: case Op::Asin: case Op::Acos: case Op::Atan:
  case Op::Atan2: case Op::Sinh: case Op::Cosh: case Op::Tanh: case Op::Exp: case Op::Exp2:
  case Op::Expm1: case Op::Log: case Op::Log2: case Op::Log10: case Op::Log1p: case Op::Sqrt:
  case Op::Cbrt: case Op::Pow: case Op::Hypot: case Op::Erf: case Op::Erfc: case Op::Asinh:
  case Op::Acosh: case Op::Atanh: case Op::Lgamma: case Op::Tgamma: case Op::Digamma:
    return true;
  default:
    return false;
  }
}

// e with its nested subterm printed as `key` replaced by x.
Expr replaceNested(const Expr &e, const std::string &key, const Expr &x) {
  auto p = e->as<Prim>();
  if (!p) return e;
  std::vector<Expr> args;
  bool changed = false;
  for (auto &a : p->args) {
    Expr r = a->is<Prim>() && print(a) == key ? x : replaceNested(a, key, x);
    changed |= r != a;
    args.push_back(r);
  }
  if (!changed) return e;
  return p->op == Op::Cast ? Prim::makeCast(args[0], p->type) : Prim::make(p->op, std::move(args));
}

} // namespace

// Remembers where v, just emitted as the last let of the current block,
// computes a costly subexpression that no let holds.
void PartialEvaluator::recordNestedSites(const Expr &v) {
  auto p = v->as<Prim>();
  if (!p || memoryEffects(v).readsMemory) return;
  size_t index = cur_->size() - 1;
  std::function<void(const Prim *)> walk = [&](const Prim *q) {
    for (auto &a : q->args) {
      auto inner = a->as<Prim>();
      if (!inner) continue;
      if (costly(inner->op)) {
        std::string key = print(a);
        if (!cse_.count(key) && nested_.emplace(key, NestedSite{cur_, index}).second) nestedLog_.push_back(key);
      }
      walk(inner);
    }
  };
  walk(p);
}

// Binds `name = v` just before the let that first needed v nested, and
// makes that let read `name`.
Expr PartialEvaluator::hoistToNestedSite(const std::string &name, const std::string &key, const Expr &v) {
  NestedSite site = nested_.at(key);
  nested_.erase(key);
  Lets &lets = *site.lets;
  Expr x = Var::make(name, v->type);
  for (size_t i = site.index; i < lets.size(); ++i) lets[i].second = replaceNested(lets[i].second, key, x);
  lets.insert(lets.begin() + site.index, {name, v});
  for (auto &[k, s] : nested_)
    if (s.lets == site.lets && s.index >= site.index) ++s.index;
  cse_[key] = name;
  cseLog_.push_back(key);
  return x;
}

} // namespace unfad::opt
