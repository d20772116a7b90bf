// The algebraic rules (Huot & Shaikhha Fig. 12 and the usual identities),
// applied as expressions are built: constant folding, then one line per
// rewrite.
#include "support.h"

#include "unfad/ir/equal.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

namespace unfad::opt {

using namespace unfad::ir;

namespace {

// Integer arithmetic as C++ does it on int64_t, or nothing where C++ would
// trap or be undefined (x / 0, x % 0, INT64_MIN / -1, overflow): such an
// operation stays in the code, for run time, where it may never execute
// (an untaken branch).
std::optional<int64_t> foldInt(Op op, int64_t x, int64_t y) {
  int64_t r = 0;
  if (op == Op::Add) return __builtin_add_overflow(x, y, &r) ? std::nullopt : std::optional<int64_t>(r);
  if (op == Op::Sub) return __builtin_sub_overflow(x, y, &r) ? std::nullopt : std::optional<int64_t>(r);
  if (op == Op::Mul) return __builtin_mul_overflow(x, y, &r) ? std::nullopt : std::optional<int64_t>(r);
  if (op == Op::Neg) return x == std::numeric_limits<int64_t>::min() ? std::nullopt : std::optional<int64_t>(-x);
  if (y == 0 || (x == std::numeric_limits<int64_t>::min() && y == -1)) return std::nullopt;
  return op == Op::Div ? x / y : x % y; // Div or Mod (isIntArithmetic)
}

bool isIntArithmetic(Op op) {
  return op == Op::Add || op == Op::Sub || op == Op::Mul || op == Op::Neg || op == Op::Div || op == Op::Mod;
}

// Folds op over constants; null when the result is left for run time.
Expr foldConst(Op op, const std::vector<Expr> &args, const TypeP &t) {
  if (t->isInt() && isIntArithmetic(op)) {
    auto r = foldInt(op, args[0]->as<Const>()->ivalue, args.size() > 1 ? args[1]->as<Const>()->ivalue : 0);
    return r ? Const::makeInt(*r) : nullptr;
  }
  Program none;
  std::vector<std::pair<std::string, Value>> env;
  Expr e = op == Op::Cast ? Prim::makeCast(args[0], t) : Prim::make(op, args);
  double v = evaluate(none, e, env).scalar;
  if (t->isBool()) return Const::makeBool(v != 0);
  if (t->isInt()) return Const::makeInt(int64_t(v));
  if (t->scalar == Scalar::F32) v = double(float(v));
  return Const::make(v, t);
}

// Values that cannot be inf or NaN, for which 0 * e = 0 holds in IEEE
// arithmetic too: finite constants, and integers converted to floating
// point. (Nothing is assumed of variables: a parameter may be inf.)
bool knownFinite(const Expr &e) {
  if (auto c = e->as<Const>()) return std::isfinite(c->fvalue);
  if (auto p = e->as<Prim>(); p && p->op == Op::Cast) return !p->args[0]->type->isFloat();
  return false;
}

Expr negatedOperand(const Expr &x) {
  auto p = x->as<Prim>();
  return p && p->op == Op::Neg ? p->args[0] : Expr();
}

Expr simplifyFloat(Op op, const std::vector<Expr> &a, const TypeP &t, bool strict) {
  auto zero = [&] { return Const::make(0.0, t); };
  auto neg = [&](const Expr &x) { return simplify(Op::Neg, {x}, nullptr, strict); };
  // 0 * e is 0 only for a finite e (0 * inf is NaN), unless zeros are symbolic
  auto zeroTimes = [&](const Expr &e) { return !strict || knownFinite(e); };
  if (op == Op::Add) {
    if (isConst(a[0], 0)) return a[1];                                            // 0 + e ~> e
    if (isConst(a[1], 0)) return a[0];                                            // e + 0 ~> e
    if (auto n = negatedOperand(a[1])) return Prim::make(Op::Sub, {a[0], n});     // a + -b ~> a - b
    if (auto n = negatedOperand(a[0])) return Prim::make(Op::Sub, {a[1], n});     // -a + b ~> b - a
    if (size(a[0]) <= 6 && !mayWrite(a[0]) && alphaEqual(a[0], a[1]))             // e + e ~> 2 * e
      return Prim::make(Op::Mul, {Const::make(2.0, t), a[0]});
    return nullptr;
  }
  if (op == Op::Sub) {
    if (isConst(a[1], 0)) return a[0];                                            // e - 0 ~> e
    if (isConst(a[0], 0)) return neg(a[1]);                                       // 0 - e ~> -e
    if (auto n = negatedOperand(a[1])) return Prim::make(Op::Add, {a[0], n});     // a - -b ~> a + b
    return nullptr;
  }
  if (op == Op::Mul) {
    if (isConst(a[0], 0) && zeroTimes(a[1])) return zero();                       // 0 * e ~> 0
    if (isConst(a[1], 0) && zeroTimes(a[0])) return zero();                       // e * 0 ~> 0
    if (isConst(a[0], 1)) return a[1];                                            // 1 * e ~> e
    if (isConst(a[1], 1)) return a[0];                                            // e * 1 ~> e
    if (isConst(a[0], -1)) return neg(a[1]);                                      // -1 * e ~> -e
    if (isConst(a[1], -1)) return neg(a[0]);                                      // e * -1 ~> -e
    if (auto n = negatedOperand(a[0])) return neg(simplify(Op::Mul, {n, a[1]}, nullptr, strict)); // -a * b ~> -(a * b)
    if (auto n = negatedOperand(a[1])) return neg(simplify(Op::Mul, {a[0], n}, nullptr, strict)); // a * -b ~> -(a * b)
    return nullptr;
  }
  if (op == Op::Div) {
    if (isConst(a[1], 1)) return a[0];                                            // e / 1 ~> e
    if (isConst(a[0], 0) && (!strict || (knownFinite(a[1]) && !isConst(a[1], 0)))) return zero(); // 0 / e ~> 0
    return nullptr;
  }
  if (op == Op::Neg) {
    if (auto n = negatedOperand(a[0])) return n;                                  // --e ~> e
    if (auto p = a[0]->as<Prim>(); p && p->op == Op::Sub)                         // -(a - b) ~> b - a
      return Prim::make(Op::Sub, {p->args[1], p->args[0]});
  }
  return nullptr; // no rule for the other operators
}

// (e ± c1) ± c2 ~> e ± (c1 ± c2): loop bounds such as n - 1 + 1 ~> n
Expr simplifyIntOffset(Op op, const std::vector<Expr> &a) {
  int64_t c2 = a[1]->as<Const>()->ivalue * (op == Op::Sub ? -1 : 1);
  if (auto in = a[0]->as<Prim>(); in && (in->op == Op::Add || in->op == Op::Sub) && in->args[1]->is<Const>()) {
    int64_t c = c2 + in->args[1]->as<Const>()->ivalue * (in->op == Op::Sub ? -1 : 1);
    if (c == 0) return in->args[0];
    return Prim::make(c > 0 ? Op::Add : Op::Sub, {in->args[0], Const::makeInt(c > 0 ? c : -c)});
  }
  if (c2 == 0) return a[0];                                                       // e ± 0 ~> e
  return nullptr;
}

// Logic with a known operand (a partial of fmin at a constant: `c || false`).
Expr simplifyLogic(Op op, const std::vector<Expr> &a) {
  auto known = [](const Expr &e, bool v) {
    auto c = e->as<Const>();
    return c && c->type->isBool() && (c->ivalue != 0) == v;
  };
  const bool unit = op == Op::And; // true for &&, false for ||
  if (known(a[1], unit)) return a[0];                                             // e || false ~> e, e && true ~> e
  if (known(a[0], unit)) return a[1];                                             // false || e ~> e, true && e ~> e
  if ((known(a[0], !unit) && !mayWrite(a[1])) || (known(a[1], !unit) && !mayWrite(a[0])))
    return Const::makeBool(!unit);                                                // e || true ~> true, e && false ~> false
  return nullptr;
}

// An integer or bool compared with itself (a size's max(n, n) from two
// branches that store alike). Not for floating point: x < x and x == x
// differ from this for NaN.
Expr simplifySelfComparison(Op op, const std::vector<Expr> &a) {
  const bool never = op == Op::Lt || op == Op::Gt || op == Op::Ne;  // e < e ~> false
  const bool always = op == Op::Le || op == Op::Ge || op == Op::Eq; // e <= e ~> true
  if (!(never || always) || a[0]->type->isFloat() || mayWrite(a[0]) || !alphaEqual(a[0], a[1])) return nullptr;
  return Const::makeBool(always);
}

} // namespace

Expr simplify(Op op, std::vector<Expr> a, const TypeP &castTo, bool strict) {
  TypeP t = op == Op::Cast ? castTo : (opIsPredicate(op) ? Type::boolean() : a[0]->type);
  if (std::all_of(a.begin(), a.end(), [](const Expr &x) { return x->is<Const>(); }))
    if (Expr folded = foldConst(op, a, t)) return folded;
  if (t->isFloat())
    if (Expr r = simplifyFloat(op, a, t, strict)) return r;
  if (t->isInt() && (op == Op::Add || op == Op::Sub) && a[1]->is<Const>())
    if (Expr r = simplifyIntOffset(op, a)) return r;
  if (op == Op::And || op == Op::Or)
    if (Expr r = simplifyLogic(op, a)) return r;
  if (Expr r = simplifySelfComparison(op, a)) return r;
  if (op == Op::Cast && sameType(a[0]->type, t)) return a[0];                     // cast<T>(e: T) ~> e
  return op == Op::Cast ? Prim::makeCast(a[0], t) : Prim::make(op, std::move(a));
}

} // namespace unfad::opt
