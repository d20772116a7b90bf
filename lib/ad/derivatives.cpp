// Partial derivatives of every primitive: one rule per operator of
// UNFAD_IR_OPS, each with its math. The switches name every operator and
// have no default, so a new operator fails to compile here (lib/ad builds
// with -Werror=switch) instead of silently getting a zero derivative.
#include "unfad/ad/derivatives.h"

#include <cmath>

namespace unfad::ad {

using namespace unfad::ir;

namespace {

// Builds the partials' expressions in the result's float type.
struct Math {
  TypeP type;
  Expr constant(double v) const { return Const::make(v, type); }
  static Expr add(Expr a, Expr b) { return Prim::make(Op::Add, {a, b}); }
  static Expr sub(Expr a, Expr b) { return Prim::make(Op::Sub, {a, b}); }
  static Expr mul(Expr a, Expr b) { return Prim::make(Op::Mul, {a, b}); }
  static Expr div(Expr a, Expr b) { return Prim::make(Op::Div, {a, b}); }
  static Expr neg(Expr a) { return Prim::make(Op::Neg, {a}); }
  static Expr square(Expr a) { return mul(a, a); }
  static Expr apply(Op op, Expr a) { return Prim::make(op, {a}); }
  Expr reciprocal(Expr a) const { return div(constant(1), a); }
};

// fmin/fmax return the other argument when one is NaN (C99 7.12.12), so the
// derivative goes to b exactly when b wins or a is NaN: [b wins or a ≠ a];
// on ties it goes to a.
std::vector<Expr> minMaxPartials(Op op, const std::vector<Expr> &x, const TypeP &type) {
  Expr toB = minMaxChoosesSecond(op, x[0], x[1]);
  return {Prim::makeCast(Prim::make(Op::Not, {toB}), type), Prim::makeCast(toB, type)};
}

} // namespace

Expr minMaxChoosesSecond(Op op, const Expr &a, const Expr &b) {
  Expr bWins = Prim::make(op == Op::Fmin ? Op::Gt : Op::Lt, {a, b});
  return Prim::make(Op::Or, {bWins, Prim::make(Op::Ne, {a, a})});
}

std::vector<Expr> partials(Op op, const std::vector<Expr> &x, const Expr &y) {
  TypeP t = y->type;
  // Integers and booleans carry no derivative.
  if (!t->isFloat()) return std::vector<Expr>(x.size(), nullptr);
  Math m{t};
  const Expr &a = x[0];
  const std::vector<Expr> zero(x.size(), nullptr);
  switch (op) {
  case Op::Add: return {m.constant(1), m.constant(1)};                  // d(a+b) = da + db
  case Op::Sub: return {m.constant(1), m.constant(-1)};                 // d(a-b) = da - db
  case Op::Mul: return {x[1], x[0]};                                    // d(ab) = b da + a db
  case Op::Div: {                                                       // d(a/b) = da/b - (a/b)/b db
    // one division, 1/b, shared by both partials (divisions cost several
    // multiplications); for 1/b itself CSE makes the second partial -y·y
    Expr r = m.reciprocal(x[1]);
    return {r, Math::neg(Math::mul(y, r))};
  }
  case Op::Neg: return {m.constant(-1)};                                // d(-a) = -da
  case Op::Mod: case Op::BitAnd: case Op::BitOr: case Op::BitXor: case Op::Shl: case Op::Shr: case Op::BitNot:
    throw IRError(std::string("partials: ") + opName(op) + " exists only on integers, it has no derivative");
  case Op::Sin: return {Math::apply(Op::Cos, a)};                       // sin' = cos
  case Op::Cos: return {Math::neg(Math::apply(Op::Sin, a))};            // cos' = -sin
  case Op::Tan: return {Math::add(m.constant(1), Math::square(y))};     // tan' = 1 + tan²
  case Op::Asin:                                                        // asin' = 1/√(1-x²)
    return {m.reciprocal(Math::apply(Op::Sqrt, Math::sub(m.constant(1), Math::square(a))))};
  case Op::Acos:                                                        // acos' = -1/√(1-x²)
    return {Math::neg(m.reciprocal(Math::apply(Op::Sqrt, Math::sub(m.constant(1), Math::square(a)))))};
  case Op::Atan: return {m.reciprocal(Math::add(m.constant(1), Math::square(a)))}; // atan' = 1/(1+x²)
  case Op::Atan2: {                                                     // ∇atan2(a,b) = (b, -a)/(a²+b²)
    Expr r2 = Math::add(Math::square(x[0]), Math::square(x[1]));
    return {Math::div(x[1], r2), Math::neg(Math::div(x[0], r2))};
  }
  case Op::Sinh: return {Math::apply(Op::Cosh, a)};                     // sinh' = cosh
  case Op::Cosh: return {Math::apply(Op::Sinh, a)};                     // cosh' = sinh
  case Op::Tanh: return {Math::sub(m.constant(1), Math::square(y))};    // tanh' = 1 - tanh²
  case Op::Exp: return {y};                                             // exp' = exp
  case Op::Exp2: return {Math::mul(y, m.constant(std::log(2.0)))};      // (2^x)' = 2^x ln 2
  case Op::Expm1: return {Math::add(y, m.constant(1))};                 // expm1' = e^x = expm1 + 1
  case Op::Log: return {m.reciprocal(a)};                               // log' = 1/x
  case Op::Log2: return {m.reciprocal(Math::mul(a, m.constant(std::log(2.0))))};   // log2' = 1/(x ln 2)
  case Op::Log10: return {m.reciprocal(Math::mul(a, m.constant(std::log(10.0))))}; // log10' = 1/(x ln 10)
  case Op::Log1p: return {m.reciprocal(Math::add(m.constant(1), a))};   // log1p' = 1/(1+x)
  case Op::Sqrt: return {Math::div(m.constant(0.5), y)};                // √' = 1/(2√x)
  case Op::Cbrt: return {m.reciprocal(Math::mul(m.constant(3), Math::square(y)))}; // ∛' = 1/(3 ∛x²)
  case Op::Pow:                                                         // d a^b = b a^(b-1) da + a^b ln a db
    return {Math::mul(x[1], Prim::make(Op::Pow, {x[0], Math::sub(x[1], m.constant(1))})),
            Math::mul(y, Math::apply(Op::Log, x[0]))};
  case Op::Hypot: return {Math::div(x[0], y), Math::div(x[1], y)};      // ∇hypot(a,b) = (a, b)/hypot
  case Op::Fabs: return {Math::apply(Op::Sign, a)};                     // |x|' = sign(x); 0 at x = 0
  case Op::Fmin: case Op::Fmax: return minMaxPartials(op, x, t);        // the chosen argument's is 1
  case Op::Erf:                                                         // erf' = 2/√π e^(-x²)
    return {Math::mul(m.constant(2.0 / std::sqrt(M_PI)), Math::apply(Op::Exp, Math::neg(Math::square(a))))};
  case Op::Erfc:                                                        // erfc' = -2/√π e^(-x²)
    return {Math::mul(m.constant(-2.0 / std::sqrt(M_PI)), Math::apply(Op::Exp, Math::neg(Math::square(a))))};
  case Op::Asinh:                                                       // asinh' = 1/√(x²+1)
    return {m.reciprocal(Math::apply(Op::Sqrt, Math::add(Math::square(a), m.constant(1))))};
  case Op::Acosh:                                                       // acosh' = 1/(√(x-1) √(x+1))
    return {m.reciprocal(Math::mul(Math::apply(Op::Sqrt, Math::sub(a, m.constant(1))),
                                   Math::apply(Op::Sqrt, Math::add(a, m.constant(1)))))};
  case Op::Atanh: return {m.reciprocal(Math::sub(m.constant(1), Math::square(a)))}; // atanh' = 1/(1-x²)
  case Op::Lgamma: return {Math::apply(Op::Digamma, a)};                // (log|Γ|)' = ψ
  case Op::Tgamma: return {Math::mul(y, Math::apply(Op::Digamma, a))};  // Γ' = Γ ψ
  case Op::Fmod: case Op::Remainder: {                                  // a - n b: ∇ = (1, -n)
    // n recovered from the result, exactly (fmod's n is trunc(a/b) and
    // remainder's the nearest integer, of the exact quotient, not of a/b rounded)
    Expr n = Math::apply(Op::Round, Math::div(Math::sub(x[0], y), x[1]));
    return {m.constant(1), Math::neg(n)};
  }
  case Op::Copysign:                                                    // |a| sign(b): ∂a = sign(a) sign(b)
    return {Math::mul(Math::apply(Op::Sign, a), Prim::make(Op::Copysign, {m.constant(1), x[1]})), nullptr};
  case Op::Fdim: {                                                      // max(a-b, 0): (1, -1) where a > b
    Expr above = Prim::makeCast(Prim::make(Op::Gt, {x[0], x[1]}), t);
    return {above, Math::neg(above)};
  }
  case Op::Digamma:                                                     // ψ' (trigamma): not provided
    throw IRError("partials: the derivative of digamma (lgamma's second derivative) is not provided");
  case Op::Floor: case Op::Ceil: case Op::Round: case Op::Trunc: case Op::Sign:
    return zero;                                                        // piecewise constant: 0
  case Op::Lt: case Op::Le: case Op::Gt: case Op::Ge: case Op::Eq: case Op::Ne:
  case Op::And: case Op::Or: case Op::Not:
    return zero;                                                        // bool result (not reached)
  case Op::Cast:                                                        // d cast<T>(a) = cast<T>(da)
    return {a->type->isFloat() ? m.constant(1) : nullptr};              // (an integer a is passive)
  }
  throw IRError("partials: unknown operator");
}

bool partialsReadResult(Op op) {
  switch (op) {
  case Op::Exp: case Op::Exp2: case Op::Expm1: case Op::Tanh: case Op::Tan: case Op::Sqrt: case Op::Cbrt:
  case Op::Pow: case Op::Hypot: case Op::Tgamma: case Op::Fmod: case Op::Remainder:
    return true;
  case Op::Add: case Op::Sub: case Op::Mul: case Op::Div: case Op::Neg: case Op::Mod:
  case Op::BitAnd: case Op::BitOr: case Op::BitXor: case Op::Shl: case Op::Shr: case Op::BitNot:
  case Op::Sin: case Op::Cos: case Op::Asin: case Op::Acos: case Op::Atan: case Op::Atan2:
  case Op::Sinh: case Op::Cosh: case Op::Log: case Op::Log2: case Op::Log10: case Op::Log1p:
  case Op::Fabs: case Op::Fmin: case Op::Fmax: case Op::Erf: case Op::Erfc: case Op::Asinh: case Op::Acosh:
  case Op::Atanh: case Op::Lgamma: case Op::Copysign: case Op::Fdim: case Op::Digamma:
  case Op::Floor: case Op::Ceil: case Op::Round: case Op::Trunc: case Op::Sign:
  case Op::Lt: case Op::Le: case Op::Gt: case Op::Ge: case Op::Eq: case Op::Ne:
  case Op::And: case Op::Or: case Op::Not: case Op::Cast:
    return false;
  }
  throw IRError("partialsReadResult: unknown operator");
}

} // namespace unfad::ad
