// Partial derivatives of every primitive. Each rule states its math.
#include "unfad/ad/derivatives.h"

#include <cmath>

namespace unfad::ad {

using namespace unfad::ir;

namespace {
struct B {
  TypeP t;
  Expr c(double v) const { return Const::make(v, t); }
  static Expr add(Expr a, Expr b) { return Prim::make(Op::Add, {a, b}); }
  static Expr sub(Expr a, Expr b) { return Prim::make(Op::Sub, {a, b}); }
  static Expr mul(Expr a, Expr b) { return Prim::make(Op::Mul, {a, b}); }
  static Expr div(Expr a, Expr b) { return Prim::make(Op::Div, {a, b}); }
  static Expr neg(Expr a) { return Prim::make(Op::Neg, {a}); }
  static Expr un(Op op, Expr a) { return Prim::make(op, {a}); }
  Expr indicator(Op pred, Expr a, Expr b) const { return Prim::makeCast(Prim::make(pred, {a, b}), t); }
};
} // namespace

std::vector<Expr> partials(Op op, const std::vector<Expr> &x, const Expr &y) {
  TypeP t = y->type;
  if (!t->isFloat()) return std::vector<Expr>(x.size(), nullptr);
  B b{t};
  auto a = x.empty() ? nullptr : x[0];
  auto sq = [&](Expr e) { return B::mul(e, e); };
  switch (op) {
  case Op::Add: return {b.c(1), b.c(1)};                            // d(a+b) = da + db
  case Op::Sub: return {b.c(1), b.c(-1)};                           // d(a-b) = da - db
  case Op::Mul: return {x[1], x[0]};                                // d(ab) = b da + a db
  case Op::Div: {                                                   // d(a/b) = da/b - (a/b)/b db
    // one division, 1/b, shared by both partials (divisions cost several
    // multiplications); for 1/b itself CSE makes the second partial -y·y
    Expr r = B::div(b.c(1), x[1]);
    return {r, B::neg(B::mul(y, r))};
  }
  case Op::Neg: return {b.c(-1)};
  case Op::Sin: return {B::un(Op::Cos, a)};                         // sin' = cos
  case Op::Cos: return {B::neg(B::un(Op::Sin, a))};                 // cos' = -sin
  case Op::Tan: return {B::add(b.c(1), sq(y))};                     // tan' = 1 + tan²
  case Op::Asin: return {B::div(b.c(1), B::un(Op::Sqrt, B::sub(b.c(1), sq(a))))};         // 1/√(1-x²)
  case Op::Acos: return {B::neg(B::div(b.c(1), B::un(Op::Sqrt, B::sub(b.c(1), sq(a)))))}; // -1/√(1-x²)
  case Op::Atan: return {B::div(b.c(1), B::add(b.c(1), sq(a)))};   // 1/(1+x²)
  case Op::Atan2: {                                                 // atan2(a,b): (b, -a)/(a²+b²)
    Expr r2 = B::add(sq(x[0]), sq(x[1]));
    return {B::div(x[1], r2), B::neg(B::div(x[0], r2))};
  }
  case Op::Sinh: return {B::un(Op::Cosh, a)};
  case Op::Cosh: return {B::un(Op::Sinh, a)};
  case Op::Tanh: return {B::sub(b.c(1), sq(y))};                    // 1 - tanh²
  case Op::Exp: return {y};                                         // exp' = exp
  case Op::Exp2: return {B::mul(y, b.c(std::log(2.0)))};            // 2^x ln 2
  case Op::Expm1: return {B::add(y, b.c(1))};                       // e^x = expm1 + 1
  case Op::Log: return {B::div(b.c(1), a)};                         // 1/x
  case Op::Log2: return {B::div(b.c(1), B::mul(a, b.c(std::log(2.0))))};
  case Op::Log10: return {B::div(b.c(1), B::mul(a, b.c(std::log(10.0))))};
  case Op::Log1p: return {B::div(b.c(1), B::add(b.c(1), a))};
  case Op::Sqrt: return {B::div(b.c(0.5), y)};                      // 1/(2√x)
  case Op::Cbrt: return {B::div(b.c(1), B::mul(b.c(3), sq(y)))};    // 1/(3 ∛x²)
  case Op::Pow:                                                     // d a^b = b a^(b-1) da + a^b ln a db
    return {B::mul(x[1], Prim::make(Op::Pow, {x[0], B::sub(x[1], b.c(1))})),
            B::mul(y, B::un(Op::Log, x[0]))};
  case Op::Hypot: return {B::div(x[0], y), B::div(x[1], y)};        // (a, b)/hypot
  case Op::Fabs: return {B::un(Op::Sign, a)};                       // sign(x); 0 at x = 0
  case Op::Fmin:                                                    // the smaller one; a on ties
  case Op::Fmax: {                                                  // the larger one; a on ties
    // fmin/fmax return the other argument when one is NaN (C99 7.12.12), so the
    // derivative goes to b exactly when b wins or a is NaN: [b wins or a ≠ a].
    Expr bWins = Prim::make(op == Op::Fmin ? Op::Gt : Op::Lt, {x[0], x[1]});
    Expr toB = Prim::make(Op::Or, {bWins, Prim::make(Op::Ne, {x[0], x[0]})});
    return {Prim::makeCast(Prim::make(Op::Not, {toB}), t), Prim::makeCast(toB, t)};
  }
  case Op::Erf:                                                     // 2/√π e^(-x²)
    return {B::mul(b.c(2.0 / std::sqrt(M_PI)), B::un(Op::Exp, B::neg(sq(a))))};
  case Op::Floor: case Op::Ceil: case Op::Round: case Op::Trunc: case Op::Sign:
    return {nullptr};                                               // piecewise constant
  default:
    return std::vector<Expr>(x.size(), nullptr);
  }
}

} // namespace unfad::ad
