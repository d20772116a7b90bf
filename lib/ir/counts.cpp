#include "unfad/ir/counts.h"

#include <algorithm>

namespace unfad::ir {

namespace {
bool isInt(const Const *c, int64_t v) { return c && c->ivalue == v; }
} // namespace

Expr addCounts(const Expr &a, const Expr &b) {
  if (!a || !b) return nullptr;
  auto ca = a->as<Const>(), cb = b->as<Const>();
  if (ca && cb) return Const::makeInt(ca->ivalue + cb->ivalue);
  if (isInt(ca, 0)) return b;
  if (isInt(cb, 0)) return a;
  return Prim::make(Op::Add, {a, b});
}

Expr mulCounts(const Expr &a, const Expr &b) {
  if (!a || !b) return nullptr;
  auto ca = a->as<Const>(), cb = b->as<Const>();
  if (ca && cb) return Const::makeInt(ca->ivalue * cb->ivalue);
  if (isInt(ca, 0) || isInt(cb, 0)) return Const::makeInt(0);
  if (isInt(ca, 1)) return b;
  if (isInt(cb, 1)) return a;
  return Prim::make(Op::Mul, {a, b});
}

// (counts are never negative, so max(0, x) = x)
Expr maxCounts(const Expr &a, const Expr &b) {
  if (!a || !b) return nullptr;
  auto ca = a->as<Const>(), cb = b->as<Const>();
  if (ca && cb) return Const::makeInt(std::max(ca->ivalue, cb->ivalue));
  if (isInt(ca, 0)) return b;
  if (isInt(cb, 0)) return a;
  return If::make(Prim::make(Op::Gt, {a, b}), a, b);
}

} // namespace unfad::ir
