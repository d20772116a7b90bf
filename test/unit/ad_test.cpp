// Unit tests of the Clang-free passes: UNF and back, reverse mode on UNF,
// and the partial evaluator. Every gradient is compared with an independent
// reference: 4-point finite differences of the primal (run by the IR
// evaluator) or a hand-derived formula.
#include "unfad/ad/reverse.h"
#include "unfad/ir/ir.h"
#include "unfad/ir/json.h"
#include "unfad/ir/large_stack.h"
#include "unfad/ir/mutator.h"
#include "unfad/opt/optimize.h"
#include "unfad/unf/unf.h"

#include "test_util.h"

#include <gtest/gtest.h>
#include <unfad/unfad.h>

#include <cmath>
#include <functional>

using namespace unfad;
using namespace unfad::ir;

namespace {

// A tiny builder DSL for IR in tests.
Expr v(const std::string &n, TypeP t = Type::f64()) { return Var::make(n, t); }
Expr c(double x) { return Const::make(x); }
Expr add(Expr a, Expr b) { return Prim::make(Op::Add, {a, b}); }
Expr mul(Expr a, Expr b) { return Prim::make(Op::Mul, {a, b}); }
Expr un(Op op, Expr a) { return Prim::make(op, {a}); }
Expr let(const std::string &n, Expr val, std::function<Expr(Expr)> body) {
  return Let::make(n, val, body(Var::make(n, val->type)));
}

Function fn(const std::string &name, std::vector<std::string> params, Expr body, bool marked = true) {
  Function f;
  f.name = name;
  for (auto &p : params) f.params.push_back({p, Type::f64(), true});
  f.result = body->type;
  f.body = body;
  f.marked = marked;
  f.cxx.name = name;
  return f;
}

using test::hasLambda;

std::vector<Value> args(const std::vector<double> &xs) {
  std::vector<Value> a;
  for (double x : xs) a.push_back(Value::of(x));
  return a;
}

double evalPrimal(const Program &p, const std::string &f, const std::vector<double> &xs) {
  return evaluate(p, f, args(xs)).scalar;
}

// 4-point central differences of the primal.
std::vector<double> finiteDiff(const Program &p, const std::string &f, std::vector<double> xs) {
  std::vector<double> g;
  for (size_t i = 0; i < xs.size(); ++i) {
    double h = 1e-3 * std::max(1.0, std::fabs(xs[i]));
    auto at = [&](double d) {
      auto ys = xs;
      ys[i] += d;
      return evalPrimal(p, f, ys);
    };
    g.push_back((at(-2 * h) - 8 * at(-h) + 8 * at(h) - at(2 * h)) / (12 * h));
  }
  return g;
}

// Gradient through `grad` (reverse program, optimised or not).
std::vector<double> gradient(const Program &primal, const Program &grad, const std::string &f,
                             const std::vector<double> &xs, double *value = nullptr) {
  Program all = primal;
  for (auto &g : grad.functions) all.functions.push_back(g);
  Value r = evaluate(all, ad::gradFunctionName(f), args(xs));
  std::vector<double> g;
  for (size_t i = 1; i < r.elems.size(); ++i) g.push_back(r.elems[i].scalar);
  if (value) *value = r.elems[0].scalar;
  return g;
}

void expectNear(const std::vector<double> &a, const std::vector<double> &b, double tol = 1e-6) {
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i)
    EXPECT_NEAR(a[i], b[i], tol * std::max(1.0, std::fabs(b[i]))) << "component " << i;
}

// Checks reverse mode before and after optimisation against finite
// differences at `xs`, and that the optimiser removed every continuation.
void checkAgainstFD(const Program &p, const std::string &f, const std::vector<double> &xs) {
  Program rev = ad::reverse(p);
  Program opt = opt::optimize(rev);
  for (auto &g : opt.functions) EXPECT_FALSE(hasLambda(g.body)) << print(g);
  auto fd = finiteDiff(p, f, xs);
  double v1 = 0, v2 = 0;
  expectNear(gradient(p, rev, f, xs, &v1), fd);
  expectNear(gradient(p, opt, f, xs, &v2), fd);
  EXPECT_DOUBLE_EQ(v1, evalPrimal(p, f, xs));
  EXPECT_DOUBLE_EQ(v2, evalPrimal(p, f, xs));
}

// UNF paper, Example 1.1: w1 = x1*x2; w2 = w1*x1 in context x1, x2, x3.
Program example11() {
  Program p;
  p.functions.push_back(fn("f", {"x1", "x2", "x3"},
                           let("w1", mul(v("x1"), v("x2")), [](Expr w1) {
                             return let("w2", mul(w1, v("x1")), [](Expr w2) { return w2; });
                           })));
  return p;
}

} // namespace

TEST(IR, PrintsAndRoundTripsThroughJson) {
  Program p = example11();
  std::string text = print(p);
  EXPECT_NE(text.find("let w1: f64 = mul(x1, x2) in"), std::string::npos) << text;
  Program back = programFromJson(toJson(p));
  EXPECT_EQ(print(back), text);
}

TEST(IR, MakeFactoriesRejectIllTypedNodes) {
  EXPECT_THROW(Prim::make(Op::Add, {c(1), Const::makeInt(1)}), IRError);
  EXPECT_THROW(If::make(c(1), c(1), c(2)), IRError);
  EXPECT_THROW(Proj::make(c(1), 0), IRError);
}

TEST(UNF, Example11HasTheShapeOfFig9) {
  auto u = unf::toUnf(example11().functions[0]);
  std::string text = unf::print(u);
  // var x1; var x2; op mul/2; drop the two copies; ... as in Fig. 9.
  EXPECT_NE(text.find("var 0"), std::string::npos) << text;
  EXPECT_NE(text.find("op mul/2"), std::string::npos) << text;
  EXPECT_NE(text.find("drop 3+2"), std::string::npos) << text;
  // The term maps the context x1,x2,x3 to x1,x2,x3,result.
  auto out = unf::run(u.body, {Type::f64(), Type::f64(), Type::f64()});
  EXPECT_EQ(out.size(), 4u);
}

TEST(UNF, RoundTripIsAnANFConversionThatPreservesValues) {
  Program p = example11();
  Function g = p.functions[0];
  g.body = unf::fromUnf(unf::toUnf(g));
  g.name = "g";
  p.functions.push_back(g);
  for (double x1 : {0.5, -2.0, 3.0})
    EXPECT_DOUBLE_EQ(evalPrimal(p, "f", {x1, 1.5, 7}), evalPrimal(p, "g", {x1, 1.5, 7}));
}

TEST(Reverse, Example11MatchesTheHandDerivedGradient) {
  Program p = example11();
  Program opt = opt::optimize(ad::reverse(p));
  for (double x1 : {0.5, -2.0, 3.0}) {
    double x2 = 1.25;
    auto g = gradient(p, opt, "f", {x1, x2, 9});
    // (w1 + x2*x1, x1*x1, 0) with w1 = x1*x2
    expectNear(g, {2 * x1 * x2, x1 * x1, 0.0}, 1e-12);
  }
}

TEST(Optimizer, Example11BecomesTheSSAProgramOfThePaper) {
  Program opt = opt::optimize(ad::reverse(example11()));
  std::string text = print(opt.functions[0].body);
  // Forward: w1 = x1*x2, w2 = w1*x1; backward: no continuation, no zero
  // arithmetic, x3's cotangent is the constant 0.
  EXPECT_NE(text.find("let w1: f64 = mul(x1, x2) in"), std::string::npos) << text;
  EXPECT_NE(text.find("let w2: f64 = mul(w1, x1) in"), std::string::npos) << text;
  EXPECT_EQ(text.find("fun ("), std::string::npos) << text;
  EXPECT_EQ(text.find("add(0.0"), std::string::npos) << text;
  EXPECT_EQ(text.find("mul(1.0"), std::string::npos) << text;
  EXPECT_NE(text.find(", 0.0)"), std::string::npos) << text;
}

TEST(Reverse, ChadFigure1) {
  // y = x1*x4 + 2*x2; z = y*x3; w = z + x4; v = sin(w); x4 is used twice.
  Program p;
  p.functions.push_back(fn("f", {"x1", "x2", "x3", "x4"},
                           let("y", add(mul(v("x1"), v("x4")), mul(c(2), v("x2"))), [](Expr y) {
                             return let("z", mul(y, v("x3")), [](Expr z) {
                               return let("w", add(z, v("x4")), [](Expr w) { return un(Op::Sin, w); });
                             });
                           })));
  Program opt = opt::optimize(ad::reverse(p));
  auto g = gradient(p, opt, "f", {1, 2, 3, 4});
  expectNear(g, {-11.5513, -5.7756, -7.7008, -3.8504}, 1e-4);
  checkAgainstFD(p, "f", {1, 2, 3, 4});
}

TEST(Reverse, KnossosSection9) {
  // y = x*x; z = x + y; y*z: derivative 3x² + 4x³ (the notes print it wrong).
  Program p;
  p.functions.push_back(fn("f", {"x"}, let("y", mul(v("x"), v("x")), [](Expr y) {
                             return let("z", add(v("x"), y), [&](Expr z) { return mul(y, z); });
                           })));
  Program opt = opt::optimize(ad::reverse(p));
  EXPECT_NEAR(gradient(p, opt, "f", {1})[0], 7, 1e-12);
  EXPECT_NEAR(gradient(p, opt, "f", {2})[0], 44, 1e-12);
}

TEST(Reverse, EveryMathFunctionAgainstFiniteDifferences) {
  struct Case { Op op; double x; };
  for (Case k : std::vector<Case>{{Op::Sin, 0.7}, {Op::Cos, 0.7}, {Op::Tan, 0.4}, {Op::Asin, 0.3},
                                  {Op::Acos, 0.3}, {Op::Atan, 0.9}, {Op::Sinh, 0.5}, {Op::Cosh, 0.5},
                                  {Op::Tanh, 0.5}, {Op::Exp, 0.5}, {Op::Exp2, 0.5}, {Op::Expm1, 0.5},
                                  {Op::Log, 1.7}, {Op::Log2, 1.7}, {Op::Log10, 1.7}, {Op::Log1p, 0.7},
                                  {Op::Sqrt, 2.2}, {Op::Cbrt, 2.2}, {Op::Fabs, -1.3}, {Op::Erf, 0.4},
                                  {Op::Neg, 0.4}, {Op::Erfc, 0.4}, {Op::Asinh, 0.7}, {Op::Acosh, 1.6},
                                  {Op::Atanh, 0.3}, {Op::Lgamma, 2.3}, {Op::Lgamma, 0.2}, {Op::Lgamma, -1.4},
                                  {Op::Tgamma, 2.3}, {Op::Tgamma, 0.6}, {Op::Tgamma, -0.5}}) {
    Program p;
    p.functions.push_back(fn("f", {"x"}, mul(un(k.op, v("x")), v("x"))));
    SCOPED_TRACE(opName(k.op));
    checkAgainstFD(p, "f", {k.x});
  }
  for (Op op : {Op::Atan2, Op::Pow, Op::Hypot, Op::Fmin, Op::Fmax, Op::Div, Op::Sub, Op::Fmod, Op::Remainder,
                Op::Copysign, Op::Fdim}) {
    Program p;
    p.functions.push_back(fn("f", {"a", "b"}, mul(Prim::make(op, {v("a"), v("b")}), v("a"))));
    SCOPED_TRACE(opName(op));
    checkAgainstFD(p, "f", {1.3, 0.6});
    checkAgainstFD(p, "f", {0.4, 2.1});
  }
}

// unfad::digamma (the derivative of lgamma the generated code calls) against
// sixth-order central differences of std::lgamma, on both sides of the
// reflection (1/2) and of the recurrence's end (10), and between poles.
TEST(Reverse, DigammaIsTheDerivativeOfLgamma) {
  for (double x : {0.05, 0.3, 0.5, 0.7, 1.0, 2.5, 9.5, 10.0, 10.5, 47.0, 1e4, -0.3, -1.7, -5.5}) {
    const double h = 1e-3 * std::max(1.0, std::fabs(x) / 10);
    auto g = [](double t) { return std::lgamma(t); };
    const double fd = (g(x + 3 * h) - 9 * g(x + 2 * h) + 45 * g(x + h) - 45 * g(x - h) + 9 * g(x - 2 * h) - g(x - 3 * h)) / (60 * h);
    EXPECT_NEAR(unfad::digamma(x), fd, 1e-8 * std::max(1.0, std::fabs(fd))) << x;
  }
  EXPECT_TRUE(std::isnan(unfad::digamma(-2.0)));
  EXPECT_TRUE(std::isnan(unfad::digamma(0.0)));
  EXPECT_NEAR(unfad::digamma(1.0), -0.57721566490153286, 1e-14); // -γ
  EXPECT_NEAR(unfad::digamma(0.5f), -1.9635100260214235, 1e-6);  // -γ - 2 ln 2
}

TEST(Reverse, PiecewiseConstantFunctionsHaveZeroDerivative) {
  for (Op op : {Op::Floor, Op::Ceil, Op::Round, Op::Trunc}) {
    Program p;
    p.functions.push_back(fn("f", {"x"}, add(un(op, v("x")), mul(v("x"), c(3)))));
    Program opt = opt::optimize(ad::reverse(p));
    EXPECT_NEAR(gradient(p, opt, "f", {2.3})[0], 3.0, 1e-12) << opName(op);
  }
}

TEST(Reverse, ConditionalRunsOnlyTheTakenBranchDerivative) {
  // if x > y then x*x*y else sin(x)*y
  Program p;
  Expr cond = Prim::make(Op::Gt, {v("x"), v("y")});
  p.functions.push_back(fn("f", {"x", "y"},
                           If::make(cond, mul(mul(v("x"), v("x")), v("y")), mul(un(Op::Sin, v("x")), v("y")))));
  checkAgainstFD(p, "f", {2.0, 1.0});
  checkAgainstFD(p, "f", {0.5, 1.0});
}

TEST(Reverse, ConditionalBindingSeveralValues) {
  // let (a, b) = if x > 0 then (x*y, y) else (y, x*x) in a*b + a
  Program p;
  Expr cond = Prim::make(Op::Gt, {v("x"), c(0)});
  Expr branches = If::make(cond, Tuple::make({mul(v("x"), v("y")), v("y")}),
                           Tuple::make({v("y"), mul(v("x"), v("x"))}));
  auto tt = branches->type;
  p.functions.push_back(fn("f", {"x", "y"}, let("ab", branches, [&](Expr ab) {
                             Expr a = Proj::make(ab, 0), b = Proj::make(ab, 1);
                             return add(mul(a, b), a);
                           })));
  checkAgainstFD(p, "f", {1.5, 0.7});
  checkAgainstFD(p, "f", {-1.5, 0.7});
}

TEST(Reverse, HelperCallsGoThroughOnePullback) {
  // sq(a) = a*a*3;  f(x, y) = sq(x*y) + sq(x)
  Program p;
  p.functions.push_back(fn("sq", {"a"}, mul(mul(v("a"), v("a")), c(3)), false));
  auto call = [](Expr a) { return Call::make("sq", {a}, Type::f64()); };
  p.functions.push_back(fn("f", {"x", "y"}, add(call(mul(v("x"), v("y"))), call(v("x")))));
  Program rev = ad::reverse(p);
  ASSERT_NE(rev.find(pullbackFunctionName("sq")), nullptr);
  checkAgainstFD(p, "f", {0.8, -1.7});
}

TEST(Reverse, StructValuedHelpers) {
  // dot(a, b) with Vec3 = {x, y, z}; f(x, y) = dot(v, v) where v = {x, x*y, 2}
  auto vec3 = Type::structure("Vec3", {"x", "y", "z"}, {Type::f64(), Type::f64(), Type::f64()});
  Program p;
  Function dot;
  dot.name = "dot";
  dot.cxx.name = "dot";
  dot.params = {{"a", vec3, true}, {"b", vec3, true}};
  Expr a = v("a", vec3), b = v("b", vec3);
  dot.body = add(add(mul(Proj::make(a, 0), Proj::make(b, 0)), mul(Proj::make(a, 1), Proj::make(b, 1))),
                 mul(Proj::make(a, 2), Proj::make(b, 2)));
  dot.result = Type::f64();
  p.functions.push_back(dot);
  p.functions.push_back(fn("f", {"x", "y"}, let("w", Tuple::makeStruct(vec3, {v("x"), mul(v("x"), v("y")), c(2)}),
                                                [&](Expr w) { return Call::make("dot", {w, w}, Type::f64()); })));
  checkAgainstFD(p, "f", {0.3, 1.9});
}

TEST(Reverse, RecursiveHelperWithPassiveDepth) {
  // powi(x, n) = n == 0 ? 1 : x * powi(x, n - 1);  f(x) = powi(x, 5)
  Program p;
  Function powi;
  powi.name = "powi";
  powi.cxx.name = "powi";
  powi.params = {{"x", Type::f64(), true}, {"n", Type::i64(), false}};
  powi.result = Type::f64();
  Expr n = v("n", Type::i64());
  powi.body = If::make(Prim::make(Op::Eq, {n, Const::makeInt(0)}), c(1),
                       mul(v("x"), Call::make("powi", {v("x"), Prim::make(Op::Sub, {n, Const::makeInt(1)})}, Type::f64())));
  p.functions.push_back(powi);
  p.functions.push_back(fn("f", {"x"}, Call::make("powi", {v("x"), Const::makeInt(5)}, Type::f64())));
  Program opt = opt::optimize(ad::reverse(p));
  EXPECT_NEAR(gradient(p, opt, "f", {1.1})[0], 5 * std::pow(1.1, 4), 1e-12);
}

TEST(Optimizer, ChainOfSharedLetsStaysLinear) {
  // x_i = x_{i-1}*0.25 + x_{i-1}*0.75: each uses the previous one twice.
  auto chain = [](int n) {
    Expr body = v("x" + std::to_string(n));
    for (int i = n; i >= 1; --i) {
      Expr prev = v("x" + std::to_string(i - 1));
      body = Let::make("x" + std::to_string(i), add(mul(prev, c(0.25)), mul(prev, c(0.75))), body);
    }
    Program p;
    p.functions.push_back(fn("f", {"x0"}, body));
    return p;
  };
  size_t s50 = 0, s500 = 0;
  for (int n : {50, 500}) {
    Program p = chain(n);
    // The passes recurse along the chain: as in the pipeline, a large stack.
    Program opt = ir::onLargeStack<Program>([&] { return opt::optimize(ad::reverse(p)); });
    EXPECT_NEAR(gradient(p, opt, "f", {0.7})[0], 1.0, 1e-9);
    (n == 50 ? s50 : s500) = size(opt.functions[0].body);
  }
  EXPECT_LT(double(s500), 12.0 * double(s50)) << s50 << " vs " << s500;
}

TEST(UNF, ParametersNamedLikeTemporariesResolveToTheParameter) {
  // polar(r, t) = r*cos(t) + sin(t)*r: UNF's temporaries are hinted "t";
  // a variable named t must still refer to the parameter (regression).
  Program p;
  p.functions.push_back(fn("f", {"r", "t"}, add(mul(v("r"), un(Op::Cos, v("t"))), mul(un(Op::Sin, v("t")), v("r")))));
  Function g = p.functions[0];
  g.name = "g";
  g.body = unf::fromUnf(unf::toUnf(p.functions[0]));
  p.functions.push_back(g);
  EXPECT_DOUBLE_EQ(evalPrimal(p, "f", {2.0, 0.3}), evalPrimal(p, "g", {2.0, 0.3}));
  checkAgainstFD(p, "f", {2.0, 0.3});
}

// f(x) = fold i in [0, 3) from s = x -> (print "step i s"; sin(s) * s + x):
// a loop whose backward sweep needs every step's s. The gradient, before
// and after optimisation, prints the same three lines as f (the Effect runs
// in the forward sweep only), and is right.
TEST(Reverse, PrintingRunsOnceInTheGradient) {
  Expr s = v("s"), i = v("i", Type::i64());
  Expr body = Let::make("_", Effect::make("std::printf(\"step %ld %g\\n\", \x1f, \x1f)", {i, s}),
                        add(mul(un(Op::Sin, s), s), v("x")));
  Program p;
  p.functions.push_back(fn("f", {"x"}, Fold::make(Const::makeInt(0), Const::makeInt(3), v("x"), "i", "s", body)));
  EXPECT_EQ(print(exprFromJson(toJson(body))), print(body));
  EXPECT_EQ(print(body).rfind("let _: () = effect std::printf(\"step %ld %g\\n\", $0, $1) with (i, s) in", 0), 0u) << print(body);
  std::vector<std::string> primalLog;
  evaluate(p, "f", args({0.7}), &primalLog);
  ASSERT_EQ(primalLog.size(), 3u);
  EXPECT_EQ(primalLog[0], "std::printf(\"step %ld %g\\n\", 0, 0.7)");
  Program rev = ad::reverse(p);
  for (const Program &grad : {rev, opt::optimize(rev)}) {
    Program all = p;
    for (auto &g : grad.functions) all.functions.push_back(g);
    std::vector<std::string> log;
    evaluate(all, ad::gradFunctionName("f"), args({0.7}), &log);
    EXPECT_EQ(log, primalLog);
  }
  checkAgainstFD(p, "f", {0.7});
}
