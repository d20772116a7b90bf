// Arrays and loops through UNF, reverse mode and the optimiser, checked at
// the IR level: the gradient program is run by the IR evaluator and every
// partial derivative compared with 4-point finite differences of the primal.
// Functions with output arrays are checked through their vector-Jacobian
// product: the gradient of  result + Σ_k w_k out_k  for fixed weights w.
#include "unfad/ad/reverse.h"
#include "unfad/ir/ir.h"
#include "unfad/ir/mutator.h"
#include "unfad/opt/optimize.h"

#include "test_util.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace unfad;
using namespace unfad::ir;

namespace {

TypeP f64() { return Type::f64(); }
TypeP arr() { return Type::array(Type::f64()); }
Expr v(const std::string &n, TypeP t = Type::f64()) { return Var::make(n, t); }
Expr c(double x) { return Const::make(x); }
Expr ci(long x) { return Const::makeInt(x); }
Expr add(Expr a, Expr b) { return Prim::make(Op::Add, {a, b}); }
Expr sub(Expr a, Expr b) { return Prim::make(Op::Sub, {a, b}); }
Expr mul(Expr a, Expr b) { return Prim::make(Op::Mul, {a, b}); }
Expr un(Op op, Expr a) { return Prim::make(op, {a}); }
Expr at(Expr a, Expr i) { return Index::make(a, i); }
Expr store(Expr a, Expr i, Expr x, bool add = false) {
  return Store::make(a, i, x, add ? Store::Mode::Add : Store::Mode::Set);
}

struct P {
  std::string name;
  TypeP type;
  bool active = true;
  bool written = false;
};

Function fn(const std::string &name, std::vector<P> ps, Expr body, bool marked = true) {
  Function f;
  f.name = f.cxx.name = name;
  for (auto &p : ps) f.params.push_back({p.name, p.type, p.active, p.written});
  f.result = body->type;
  f.body = body;
  f.marked = marked;
  return f;
}

// Deep copies (arrays are shared buffers in the evaluator).
std::vector<Value> copyArgs(const std::vector<Value> &as) {
  std::vector<Value> out;
  for (auto &a : as) out.push_back(a.array ? Value::arrayOf(*a.array) : a);
  return out;
}

// φ(args) = result + Σ w_k out_k over the written arrays.
double phi(const Program &p, const Function &f, const std::vector<Value> &args, const std::vector<double> &w) {
  auto as = copyArgs(args);
  Value r = evaluate(p, f.name, as);
  double total = f.result->isUnit() ? 0.0 : r.scalar;
  for (size_t k = 0; k < f.params.size(); ++k)
    if (f.params[k].written)
      for (size_t e = 0; e < as[k].array->size(); ++e) total += w[e] * (*as[k].array)[e];
  return total;
}

struct Grad {
  double value = 0;
  std::vector<std::vector<double>> partials; // per active param (arrays: per element)
};

Grad fd(const Program &p, const Function &f, const std::vector<Value> &args, const std::vector<double> &w) {
  Grad g;
  g.value = phi(p, f, args, w);
  for (size_t k = 0; k < f.params.size(); ++k) {
    if (!f.params[k].active) continue;
    auto perturbed = [&](size_t e, double d) {
      auto as = copyArgs(args);
      if (as[k].array) (*as[k].array)[e] += d;
      else as[k].scalar += d;
      return phi(p, f, as, w);
    };
    std::vector<double> ps;
    size_t m = args[k].array ? args[k].array->size() : 1;
    for (size_t e = 0; e < m; ++e) {
      double x = args[k].array ? (*args[k].array)[e] : args[k].scalar;
      double h = 1e-3 * std::max(1.0, std::fabs(x));
      ps.push_back((perturbed(e, -2 * h) - 8 * perturbed(e, -h) + 8 * perturbed(e, h) - perturbed(e, 2 * h)) / (12 * h));
    }
    g.partials.push_back(ps);
  }
  return g;
}

// Runs f$grad: output arrays' buffers carry w in, input buffers start at 0.
Grad reverseMode(const Program &primal, const Program &grads, const Function &f, const std::vector<Value> &args,
                 const std::vector<double> &w) {
  Program all = primal;
  for (auto &g : grads.functions) all.functions.push_back(g);
  auto as = copyArgs(args);
  std::vector<Value> buffers;
  for (size_t k = 0; k < f.params.size(); ++k)
    if (f.params[k].active && f.params[k].type->isArray())
      buffers.push_back(Value::arrayOf(f.params[k].written ? w : std::vector<double>(args[k].array->size(), 0.0)));
  auto call = as;
  call.insert(call.end(), buffers.begin(), buffers.end());
  Value r = evaluate(all, ad::gradFunctionName(f.name), call);
  Grad g;
  g.value = f.result->isUnit() ? 0.0 : r.elems[0].scalar;
  for (size_t k = 0; k < f.params.size(); ++k)
    if (f.params[k].written)
      for (size_t e = 0; e < as[k].array->size(); ++e) g.value += w[e] * (*as[k].array)[e];
  size_t ct = 1, b = 0;
  for (size_t k = 0; k < f.params.size(); ++k) {
    if (!f.params[k].active) continue;
    if (f.params[k].type->isArray()) g.partials.push_back(*buffers[b++].array);
    else g.partials.push_back({r.elems[ct].scalar});
    ++ct;
  }
  return g;
}

using test::hasLambda;

void expectSame(const Grad &a, const Grad &b, const char *what) {
  SCOPED_TRACE(what);
  EXPECT_NEAR(a.value, b.value, 1e-9 * std::max(1.0, std::fabs(b.value)));
  ASSERT_EQ(a.partials.size(), b.partials.size());
  for (size_t k = 0; k < a.partials.size(); ++k) {
    ASSERT_EQ(a.partials[k].size(), b.partials[k].size());
    for (size_t e = 0; e < a.partials[k].size(); ++e)
      EXPECT_NEAR(a.partials[k][e], b.partials[k][e], 1e-6 * std::max(1.0, std::fabs(b.partials[k][e])))
          << "param " << k << " element " << e;
  }
}

// Reverse mode, unoptimised and optimised, against finite differences.
void check(const Program &p, const std::vector<Value> &args, std::vector<double> w = {}) {
  const Function &f = *std::find_if(p.functions.begin(), p.functions.end(), [](auto &g) { return g.marked; });
  Grad ref = fd(p, f, args, w);
  Program rev = ad::reverse(p);
  expectSame(reverseMode(p, rev, f, args, w), ref, "reverse");
  Program opt = opt::optimize(rev);
  for (auto &g : opt.functions) EXPECT_FALSE(hasLambda(g.body)) << print(g);
  expectSame(reverseMode(p, opt, f, args, w), ref, "optimised");
}

Value arrayOf(std::vector<double> xs) { return Value::arrayOf(std::move(xs)); }

Expr sumsqBody() {
  // fold i in [0, n) from s = 0 -> s + x[i] * x[i]
  Expr x = v("x", arr()), i = v("i", Type::i64()), s = v("s");
  return Fold::make(ci(0), v("n", Type::i64()), c(0), "i", "s", add(s, mul(at(x, i), at(x, i))));
}

} // namespace

TEST(Loops, SumOfSquares) {
  Program p;
  p.functions.push_back(fn("sumsq", {{"x", arr()}, {"n", Type::i64(), false}}, sumsqBody()));
  check(p, {arrayOf({0.5, -1.5, 2.0, 3.25}), Value::of(4)});
}

TEST(Loops, HornerWithAReversedLoop) {
  // p(c, n, x) = fold i reversed [0, n) from s = 0 -> s*x + c[i]
  Expr cc = v("c", arr()), i = v("i", Type::i64()), s = v("s");
  Program p;
  p.functions.push_back(fn("horner", {{"c", arr()}, {"n", Type::i64(), false}, {"x", f64()}},
                           Fold::make(ci(0), v("n", Type::i64()), c(0), "i", "s", add(mul(s, v("x")), at(cc, i)), true)));
  check(p, {arrayOf({1.0, -2.0, 0.5, 3.0, 0.25}), Value::of(5), Value::of(0.7)});
}

TEST(Loops, NestedLeastSquares) {
  // Σ_i (Σ_j A[i*n+j] x[j] - b[i])²
  Expr A = v("A", arr()), b = v("b", arr()), x = v("x", arr()), n = v("n", Type::i64());
  Expr i = v("i", Type::i64()), j = v("j", Type::i64()), s = v("s"), t = v("t");
  Expr inner = Fold::make(ci(0), n, c(0), "j", "t", add(t, mul(at(A, Prim::make(Op::Add, {Prim::make(Op::Mul, {i, n}), j})), at(x, j))));
  Expr body = Let::make("r", inner, Let::make("d", sub(v("r"), at(b, i)), add(s, mul(v("d"), v("d")))));
  Program p;
  p.functions.push_back(fn("lsq", {{"A", arr()}, {"b", arr()}, {"x", arr()}, {"m", Type::i64(), false}, {"n", Type::i64(), false}},
                           Fold::make(ci(0), v("m", Type::i64()), c(0), "i", "s", body)));
  check(p, {arrayOf({1, 2, 3, 4, 5, 6}), arrayOf({0.5, -1}), arrayOf({0.3, -0.2, 0.9}), Value::of(2), Value::of(3)});
}

TEST(Loops, WhileLoopIntegrator) {
  // (t, y) = (0, y0); while t < 1: (t + h, y + h*(-k*y*y)); return y
  TypeP st = Type::tuple({f64(), f64()});
  Expr s = v("s", st), t = Proj::make(s, 0), y = Proj::make(s, 1);
  Expr h = c(0.125);
  Expr body = Tuple::make({add(t, h), add(y, mul(h, un(Op::Neg, mul(mul(v("k"), y), y))))});
  Program p;
  p.functions.push_back(fn("ode", {{"k", f64()}, {"y0", f64()}},
                           Proj::make(While::make(Tuple::make({c(0), v("y0")}), "s", Prim::make(Op::Lt, {t, c(0.99)}), body), 1)));
  check(p, {Value::of(0.8), Value::of(1.3)});
}

TEST(Loops, LocalBufferWrittenThenRead) {
  // buf[i] = exp(x[i]); z = Σ buf[i]; return Σ buf[i] * x[i] / z
  Expr x = v("x", arr()), n = v("n", Type::i64()), buf = v("buf", arr());
  Expr i = v("i", Type::i64()), u = v("u", Type::unit()), s = v("s");
  Expr fill = Fold::make(ci(0), n, Tuple::make({}), "i", "u", Let::make("_", store(buf, i, un(Op::Exp, at(x, i))), Tuple::make({})));
  Expr z = Fold::make(ci(0), n, c(0), "i", "s", add(s, at(buf, i)));
  Expr w = Fold::make(ci(0), n, c(0), "i", "s", add(s, mul(at(buf, i), at(x, i))));
  Expr body = Let::make("buf", NewArray::make(n, f64()),
                        Let::make("_f", fill, Let::make("z", z, Prim::make(Op::Div, {w, v("z")}))));
  Program p;
  p.functions.push_back(fn("softish", {{"x", arr()}, {"n", Type::i64(), false}}, body));
  check(p, {arrayOf({0.1, -0.4, 0.9}), Value::of(3)});
}

TEST(Loops, OutputArrayVectorJacobianProduct) {
  // out[i] = sin(x[i]) * x[i] * k;  void
  Expr x = v("x", arr()), out = v("out", arr()), n = v("n", Type::i64()), i = v("i", Type::i64());
  Expr body = Fold::make(ci(0), n, Tuple::make({}), "i", "u",
                         Let::make("_", store(out, i, mul(mul(un(Op::Sin, at(x, i)), at(x, i)), v("k"))), Tuple::make({})));
  Program p;
  p.functions.push_back(fn("vec", {{"x", arr()}, {"out", arr(), true, true}, {"n", Type::i64(), false}, {"k", f64()}},
                           Let::make("_l", body, Tuple::make({}))));
  check(p, {arrayOf({0.3, 1.2, -0.7}), arrayOf({0, 0, 0}), Value::of(3), Value::of(1.5)}, {0.5, -2.0, 1.25});
}

TEST(Loops, HelperTakingArrays) {
  // dot(a, b, n) = Σ a[i] b[i];  f(x, y, n) = dot(x, y, n) * dot(x, x, n)
  Expr a = v("a", arr()), b = v("b", arr()), i = v("i", Type::i64()), s = v("s");
  Program p;
  p.functions.push_back(fn("dot", {{"a", arr()}, {"b", arr()}, {"n", Type::i64(), false}},
                           Fold::make(ci(0), v("n", Type::i64()), c(0), "i", "s", add(s, mul(at(a, i), at(b, i)))), false));
  auto dot = [](Expr p, Expr q) { return Call::make("dot", {p, q, v("n", Type::i64())}, Type::f64()); };
  p.functions.push_back(fn("f", {{"x", arr()}, {"y", arr()}, {"n", Type::i64(), false}},
                           mul(dot(v("x", arr()), v("y", arr())), dot(v("x", arr()), v("x", arr())))));
  check(p, {arrayOf({0.3, 1.2, -0.7}), arrayOf({2, -1, 0.5}), Value::of(3)});
}

TEST(Loops, BranchInsideLoopAndLoopCarriedPair) {
  // (m, s) = fold i: (max(m, x[i]), s + (x[i] > 0 ? x[i]*x[i] : -x[i])) ; return m * s
  TypeP st = Type::tuple({f64(), f64()});
  Expr x = v("x", arr()), i = v("i", Type::i64()), s = v("s", st);
  Expr xi = at(x, i);
  Expr body = Let::make("xi", xi,
                        Tuple::make({Prim::make(Op::Fmax, {Proj::make(s, 0), v("xi")}),
                                     add(Proj::make(s, 1), If::make(Prim::make(Op::Gt, {v("xi"), c(0)}), mul(v("xi"), v("xi")),
                                                                    un(Op::Neg, v("xi"))))}));
  Expr loop = Fold::make(ci(0), v("n", Type::i64()), Tuple::make({c(-1e9), c(0)}), "i", "s", body);
  Program p;
  p.functions.push_back(fn("g", {{"x", arr()}, {"n", Type::i64(), false}},
                           Let::make("r", loop, mul(Proj::make(v("r", st), 0), Proj::make(v("r", st), 1)))));
  check(p, {arrayOf({0.3, -1.2, 2.7, -0.5}), Value::of(4)});
}

TEST(Loops, RecurrentStateArrayRewrittenEveryStep) {
  // h = 0; for t: { for j: hn[j] = tanh(b[j] + u[j]*x[t] + Σ_k W[j*H+k] h[k]); for j: h[j] = hn[j]; }
  // return Σ_j h[j] * v[j]
  const long H = 3, T = 4;
  Expr W = v("W", arr()), b = v("b", arr()), u = v("u", arr()), x = v("x", arr()), vv = v("v", arr());
  Expr h = v("h", arr()), hn = v("hn", arr());
  Expr t = v("t", Type::i64()), j = v("j", Type::i64()), k = v("k", Type::i64());
  Expr pre = Fold::make(ci(0), ci(H), add(at(b, j), mul(at(u, j), at(x, t))), "k", "a",
                        add(v("a"), mul(at(W, Prim::make(Op::Add, {Prim::make(Op::Mul, {j, ci(H)}), k})), at(h, k))));
  Expr unit = Tuple::make({});
  Expr l1 = Fold::make(ci(0), ci(H), unit, "j", "u1", Let::make("pre", pre, Let::make("_1", store(hn, j, un(Op::Tanh, v("pre"))), unit)));
  Expr l2 = Fold::make(ci(0), ci(H), unit, "j2", "u2",
                       Let::make("_2", store(h, v("j2", Type::i64()), at(hn, v("j2", Type::i64()))), unit));
  Expr steps = Fold::make(ci(0), ci(T), unit, "t", "u0", Let::make("_l1", l1, Let::make("_l2", l2, unit)));
  Expr loss = Fold::make(ci(0), ci(H), c(0), "j3", "s", add(v("s"), mul(at(h, v("j3", Type::i64())), at(vv, v("j3", Type::i64())))));
  Expr body = Let::make("h", NewArray::make(ci(H), f64()),
                        Let::make("hn", NewArray::make(ci(H), f64()), Let::make("_s", steps, loss)));
  Program p;
  p.functions.push_back(fn("rnn", {{"W", arr()}, {"b", arr()}, {"u", arr()}, {"x", arr()}, {"v", arr()}}, body));
  check(p, {arrayOf({0.1, -0.3, 0.5, 0.2, 0.4, -0.1, -0.6, 0.3, 0.2}), arrayOf({0.1, 0.0, -0.2}), arrayOf({0.5, -0.4, 0.3}),
            arrayOf({1.0, -0.5, 0.25, 0.8}), arrayOf({1.0, -1.0, 0.5})});
}

TEST(Loops, StraightLineOverwriteOfALocalArrayInsideABranch) {
  // a[0] = x; r = (x > 0 ? a[0] * y : y); a[0] = y * y; return r + a[0] * x
  Expr a = v("a", arr());
  Expr body = Let::make("a", NewArray::make(ci(1), f64()),
              Let::make("_1", store(a, ci(0), v("x")),
              Let::make("r", If::make(Prim::make(Op::Gt, {v("x"), c(0)}), mul(at(a, ci(0)), v("y")), v("y")),
              Let::make("_2", store(a, ci(0), mul(v("y"), v("y"))), add(v("r"), mul(at(a, ci(0)), v("x")))))));
  Program p;
  p.functions.push_back(fn("ow", {{"x", f64()}, {"y", f64()}}, body));
  check(p, {Value::of(0.7), Value::of(1.3)});
  check(p, {Value::of(-0.7), Value::of(1.3)});
}

TEST(Loops, ReadsAreNotReusedAcrossAWriteInALaterIteration) {
  // a[0] = x; r0 = a[0]; fold i < 3: { s = s + a[0] * y; a[0] = a[0] * y }; return s + r0
  Expr a = v("a", arr());
  Expr body = Let::make("t", at(a, ci(0)),
              Let::make("s2", add(v("s"), mul(v("t"), v("y"))),
              Let::make("_w", store(a, ci(0), mul(at(a, ci(0)), v("y"))), v("s2"))));
  Expr f = Let::make("a", NewArray::make(ci(1), f64()),
           Let::make("_1", store(a, ci(0), v("x")),
           Let::make("r0", at(a, ci(0)),
           add(Fold::make(ci(0), ci(3), c(0), "i", "s", body), v("r0")))));
  Program p;
  p.functions.push_back(fn("rw", {{"x", f64()}, {"y", f64()}}, f));
  check(p, {Value::of(0.7), Value::of(1.3)});
}

// ------------------------------------------------ build / sum (App. A) --

#include "unfad/ir/json.h"
#include "unfad/parallel/parallel.h"

namespace {
Expr i64v(const std::string &n) { return v(n, Type::i64()); }

// Whether `e` contains a node of kind K.
template <class K> bool contains(const Expr &e) {
  struct F : Visitor {
    bool found = false;
    void visitExpr(const Expr &x) override {
      found |= x->is<K>();
      Visitor::visitExpr(x);
    }
  } f;
  f.visitExpr(e);
  return f.found;
}
} // namespace

TEST(Parallel, CombinatorsEvaluateAsThePaperDefinesThem) {
  Expr a = v("a", arr()), b = v("b", arr());
  auto run = [&](const Expr &e) {
    Program none;
    return evaluate(none, e, {{"a", arrayOf({1, 2, 3})}, {"b", arrayOf({4, 5, 6})}});
  };
  // map2 (*) a b, then sum: the dot product 32
  Expr prod = map2(a, b, "i", [](Expr x, Expr y) { return mul(x, y); });
  EXPECT_EQ(run(Let::make("p", prod, sum(v("p", arr()), "j"))).scalar, 32.0);
  // shift a = [0, 1, 2]; map (x -> 2x) a = [2, 4, 6]
  EXPECT_EQ(*run(shift(a, "i")).array, (std::vector<double>{0, 1, 2}));
  EXPECT_EQ(*run(map(a, "i", [](Expr x) { return mul(c(2), x); })).array, (std::vector<double>{2, 4, 6}));
  // an empty sum is 0
  EXPECT_EQ(run(Sum::make(ci(3), ci(1), "i", c(7))).scalar, 0.0);
}

TEST(Parallel, JsonRoundTripAndLoweringKeepTheValue) {
  Expr a = v("a", arr());
  Expr e = Let::make("m", map(a, "i", [](Expr x) { return un(Op::Exp, x); }),
                     Sum::make(ci(1), Size::make(a), "j", mul(at(v("m", arr()), i64v("j")), at(a, i64v("j")))));
  Expr back = exprFromJson(toJson(e));
  EXPECT_EQ(print(back), print(e));
  Expr low = lowerParallel(e);
  EXPECT_FALSE(contains<Build>(low) || contains<Sum>(low));
  Program none;
  std::vector<std::pair<std::string, Value>> env{{"a", arrayOf({0.5, -1.0, 2.0})}};
  EXPECT_DOUBLE_EQ(evaluate(none, low, env).scalar, evaluate(none, e, env).scalar);
}

TEST(Parallel, ReverseOfSumOverAMapAgainstFiniteDifferences) {
  // f(a, x) = Σ_{1 ≤ j < n} m[j] · a[j] · x  with m = map exp a  (read twice)
  Expr a = v("a", arr()), m = v("m", arr()), j = i64v("j");
  Expr body = Let::make("m", map(a, "i", [](Expr e) { return un(Op::Exp, e); }),
                        add(Sum::make(ci(1), Size::make(a), "j", mul(mul(at(m, j), at(a, j)), v("x"))), at(m, ci(0))));
  Program p;
  p.functions.push_back(fn("f", {{"a", arr()}, {"x", f64()}}, body));
  check(p, {arrayOf({0.5, -1.0, 2.0, 0.25}), Value::of(1.5)});
  // J^T of build and sum need no tape.
  Program rev = ad::reverse(p);
  EXPECT_TRUE(contains<Build>(rev.functions[0].body) && contains<Sum>(rev.functions[0].body));
  EXPECT_EQ(print(rev).find("tape"), std::string::npos) << print(rev);
}

TEST(Parallel, BuildInsideALoopAndASumOfSums) {
  // Σ_t Σ_k w[k] · tanh(u[t] · w[k])², the inner map rebuilt every step
  Expr w = v("w", arr()), u = v("u", arr()), t = i64v("t"), k = i64v("k"), s = v("s");
  Expr h = v("h", arr());
  Expr step = Let::make("h", Build::make(Size::make(w), "k", un(Op::Tanh, mul(at(u, t), at(w, k)))),
                        add(s, Sum::make(ci(0), Size::make(w), "q", mul(at(w, i64v("q")), mul(at(h, i64v("q")), at(h, i64v("q")))))));
  Program p;
  p.functions.push_back(fn("g", {{"w", arr()}, {"u", arr()}, {"T", Type::i64(), false}},
                           Fold::make(ci(0), i64v("T"), c(0), "t", "s", step)));
  check(p, {arrayOf({0.3, -0.7, 1.1}), arrayOf({0.5, 1.5, -0.25}), Value::of(3)});
}

TEST(Parallel, RecognisesMapsAndReductionsAndFusesThem) {
  // let prod = new[n]; fold i: prod[i] = a[i]*b[i]; fold j from 0: s + prod[j]
  Expr a = v("a", arr()), b = v("b", arr()), pr = v("prod", arr()), n = i64v("n");
  Expr fill = Fold::make(ci(0), n, Tuple::make({}), "i", "u",
                         Let::make("_", store(pr, i64v("i"), mul(at(a, i64v("i")), at(b, i64v("i")))), Tuple::make({})));
  Expr reduce = Fold::make(ci(0), n, c(0), "j", "s", Let::make("s1", v("s"), add(v("s1"), at(pr, i64v("j")))));
  Expr body = Let::make("prod", NewArray::make(n, f64()), Let::make("_u", fill, reduce));
  Program p;
  p.functions.push_back(fn("dot", {{"a", arr()}, {"b", arr()}, {"n", Type::i64(), false}}, body));
  Program q = parallel::recognize(p);
  const Expr &r = q.functions[0].body;
  // map fusion: one sum of a[j]*b[j], no array left
  EXPECT_TRUE(contains<Sum>(r)) << print(r);
  EXPECT_FALSE(contains<Build>(r) || contains<NewArray>(r) || contains<Fold>(r)) << print(r);
  std::vector<Value> args{arrayOf({1, -2, 0.5}), arrayOf({3, 0.25, 4}), Value::of(3)};
  EXPECT_DOUBLE_EQ(evaluate(q, "dot", copyArgs(args)).scalar, evaluate(p, "dot", copyArgs(args)).scalar);
  check(q, args);
}

TEST(Parallel, LeavesLoopsThatAreNotParallelAlone) {
  // a fold from a non-zero state, a reversed one, and a fill that reads the
  // array it fills, stay folds
  Expr x = v("x", arr()), n = i64v("n"), s = v("s"), i = i64v("i"), t = v("t", arr());
  Expr fromOne = Fold::make(ci(0), n, c(1), "i", "s", add(s, at(x, i)));
  Expr reversed = Fold::make(ci(0), n, c(0), "i", "s", add(s, at(x, i)), true);
  Expr prefix = Fold::make(ci(1), n, Tuple::make({}), "i", "u",
                           Let::make("_", store(t, i, add(at(t, sub(i, ci(1))), at(x, i))), Tuple::make({})));
  Expr body = Let::make("t", NewArray::make(n, f64()),
                        Let::make("_p", prefix, add(add(fromOne, reversed), at(t, sub(n, ci(1))))));
  Program p;
  p.functions.push_back(fn("f", {{"x", arr()}, {"n", Type::i64(), false}}, body));
  Program q = parallel::recognize(p);
  EXPECT_EQ(print(q.functions[0].body), print(body));
}

TEST(Parallel, OneHotAndConstantSums) {
  Expr x = v("x", arr()), n = i64v("n"), i = i64v("i"), k = i64v("k");
  Expr onehot = Fold::make(ci(0), n, c(0), "i", "s",
                           add(v("s"), If::make(Prim::make(Op::Eq, {i, k}), mul(at(x, i), at(x, i)), c(0))));
  Expr ones = Fold::make(ci(2), n, c(0), "j", "r", add(v("r"), c(1)));
  Program p;
  p.functions.push_back(fn("f", {{"x", arr()}, {"n", Type::i64(), false}, {"k", Type::i64(), false}},
                           add(onehot, mul(ones, at(x, ci(0))))));
  Program q = parallel::recognize(p);
  EXPECT_FALSE(contains<Sum>(q.functions[0].body) || contains<Fold>(q.functions[0].body)) << print(q);
  for (long kk : {-1L, 0L, 2L, 7L}) {
    std::vector<Value> args{arrayOf({1.5, -2, 0.5}), Value::of(3), Value::of(double(kk))};
    EXPECT_DOUBLE_EQ(evaluate(q, "f", copyArgs(args)).scalar, evaluate(p, "f", copyArgs(args)).scalar) << kk;
    check(q, args);
  }
  std::vector<Value> small{arrayOf({1.5}), Value::of(1), Value::of(0)}; // empty range: 0
  EXPECT_DOUBLE_EQ(evaluate(q, "f", copyArgs(small)).scalar, evaluate(p, "f", copyArgs(small)).scalar);
}

TEST(Loops, StoresReadBeforeTheyAreOverwrittenAreKept) {
  // t = new[2]; t[0] = x; y = 2·t[0]; t[0] = x·x; t[1] = t[0]; return y + t[0]·t[1]
  // (the first store is read before the second overwrites it; the last
  // store writes what was read, but something wrote t in between)
  Expr t = v("t", arr()), x = v("x");
  Expr body = Let::make("t", NewArray::make(ci(2), f64()),
              Let::make("_1", store(t, ci(0), x),
              Let::make("y", mul(c(2), at(t, ci(0))),
              Let::make("z", at(t, ci(1)),
              Let::make("_2", store(t, ci(0), mul(x, x)),
              Let::make("_3", store(t, ci(1), at(t, ci(0))),
              Let::make("_4", store(t, ci(0), v("z")),
                        add(v("y"), mul(at(t, ci(0)), at(t, ci(1)))))))))));
  Program p;
  p.functions.push_back(fn("f", {{"x", f64()}}, body));
  check(p, {Value::of(1.7)});
}

TEST(Parallel, ScansAreFoldsIntoAFreshArray) {
  Expr a = v("a", arr());
  auto mulf = [](Expr x, Expr y) { return mul(x, y); };
  Program none;
  std::vector<std::pair<std::string, Value>> env{{"a", arrayOf({2, 3, 0.5})}};
  EXPECT_EQ(*evaluate(none, scanl(a, c(1), "i", "p", mulf), env).array, (std::vector<double>{1, 2, 6, 3}));
  EXPECT_EQ(*evaluate(none, scanr(a, c(1), "i", "p", mulf), env).array, (std::vector<double>{3, 1.5, 0.5, 1}));
  // f(a, x) = Σ_k scanl(*) 1 a [k] · scanr(+) x a [k]: both scans' J^T (folds)
  Expr body = Let::make("l", scanl(a, c(1), "i", "p", mulf),
              Let::make("r", scanr(a, v("x"), "j", "q", [](Expr y, Expr z) { return add(y, z); }),
                        Fold::make(ci(0), Prim::make(Op::Add, {Size::make(a), ci(1)}), c(0), "k", "s",
                                   add(v("s"), mul(at(v("l", arr()), i64v("k")), at(v("r", arr()), i64v("k")))))));
  Program p;
  p.functions.push_back(fn("f", {{"a", arr()}, {"x", f64()}}, body));
  check(p, {arrayOf({1.5, -0.5, 2.0, 0.75}), Value::of(0.3)});
}

// Arrays of structs: the evaluator keeps an element's scalar leaves one
// after the other, so the finite-difference harness above perturbs fields
// as flat elements (p[i].x is element 2i, p[i].y element 2i + 1).
namespace {
TypeP vec2() { return Type::structure("Vec2", {"x", "y"}, {Type::f64(), Type::f64()}); }
Expr field(Expr s, int k) { return Proj::make(s, k); }
Expr storeField(Expr a, Expr i, int k, Expr x, bool add = false) {
  return Store::make(a, i, x, add ? Store::Mode::Add : Store::Mode::Set, {k});
}
} // namespace

TEST(Loops, ArrayOfStructsWrittenFieldByFieldThenRead) {
  // q = new Vec2[n]; for i: q[i].x = p[i].x * p[i].y; q[i].y = sin(p[i].x); q[i].x += k * p[i].y
  // return Σ_i q[i].x * q[i].y + (i > 0 ? q[i - 1].y : 0)
  TypeP va = Type::array(vec2());
  Expr p = v("p", va), q = v("q", va), n = v("n", Type::i64()), i = v("i", Type::i64()), k = v("k");
  Expr fill = Fold::make(
      ci(0), n, Tuple::make({}), "i", "u",
      Let::make("_1", storeField(q, i, 0, mul(field(at(p, i), 0), field(at(p, i), 1))),
                Let::make("_2", storeField(q, i, 1, un(Op::Sin, field(at(p, i), 0))),
                          Let::make("_3", storeField(q, i, 0, mul(k, field(at(p, i), 1)), true), Tuple::make({})))));
  Expr prev = If::make(Prim::make(Op::Gt, {i, ci(0)}), field(at(q, sub(i, ci(1))), 1), c(0));
  Expr total = Fold::make(ci(0), n, c(0), "i", "s",
                          add(v("s"), add(mul(field(at(q, i), 0), field(at(q, i), 1)), prev)));
  Expr body = Let::make("q", NewArray::make(n, vec2()), Let::make("_f", fill, total));
  Program pr;
  pr.functions.push_back(fn("springs", {{"p", va}, {"n", Type::i64(), false}, {"k", f64()}}, body));
  check(pr, {arrayOf({0.5, -1.5, 2.0, 3.25, -0.75, 1.1}), Value::of(3), Value::of(0.8)});
}

TEST(Loops, OutputArrayOfStructsAndAStructElementCopiedWhole) {
  // out[i] = Vec2{p[i].y * k, p[i].x};  out[0] = out[n - 1] (a whole element)
  TypeP va = Type::array(vec2());
  Expr p = v("p", va), out = v("out", va), n = v("n", Type::i64()), i = v("i", Type::i64()), k = v("k");
  Expr fill = Fold::make(ci(0), n, Tuple::make({}), "i", "u",
                         Let::make("_", store(out, i, Tuple::makeStruct(vec2(), {mul(field(at(p, i), 1), k), field(at(p, i), 0)})),
                                   Tuple::make({})));
  Expr body = Let::make("_f", fill, Let::make("_g", store(out, ci(0), at(out, sub(n, ci(1)))), Tuple::make({})));
  Program pr;
  pr.functions.push_back(fn("emit", {{"p", va}, {"out", va, true, true}, {"n", Type::i64(), false}, {"k", f64()}}, body));
  check(pr, {arrayOf({0.5, -1.5, 2.0, 3.25, -0.75, 1.1}), arrayOf(std::vector<double>(6, 0.0)), Value::of(3), Value::of(1.3)},
        {0.5, -2.0, 1.25, 0.75, 3.0, -1.5});
}

TEST(Loops, FieldStoresPrintAndRoundTripThroughJson) {
  TypeP va = Type::array(vec2());
  Expr e = storeField(v("q", va), ci(2), 1, c(1.5), true);
  EXPECT_EQ(print(e), "store q[2].y += 1.5");
  EXPECT_EQ(print(exprFromJson(toJson(e))), print(e));
  EXPECT_THROW(Store::make(v("q", va), ci(0), c(1.0), Store::Mode::Set), IRError); // a scalar into a struct element
  EXPECT_THROW(Store::make(v("q", va), ci(0), c(1.0), Store::Mode::Set, {2}), IRError); // no field 2
  // a row of an array of arrays is read, never written
  TypeP rows = Type::array(arr());
  EXPECT_EQ(print(at(at(v("A", rows), ci(1)), ci(2))), "A[1][2]");
  EXPECT_THROW(Store::make(v("A", rows), ci(0), at(v("A", rows), ci(1)), Store::Mode::Set), IRError);
}

#include "unfad/inline/inline.h"

TEST(Inline, HelpersWritingArraysAreInlinedAndKeepTheirValueAndGradient) {
  // set(a, i, v): a[i] = v;  f(x, n): u = new[n]; for i: set(u, i, sin(x[i]) * y); y is a
  // parameter of f named like set's `v` argument's source, to catch capture
  Expr a = v("a", arr()), u = v("u", arr()), x = v("x", arr()), n = v("n", Type::i64()), i = v("i", Type::i64());
  Program p;
  p.functions.push_back(fn("set", {{"a", arr(), true, true}, {"i", Type::i64(), false}, {"v", f64()}},
                           Let::make("_", store(a, i, v("v")), Tuple::make({})), false));
  Expr loop = Fold::make(ci(0), n, Tuple::make({}), "i", "st",
                         Let::make("_c", Call::make("set", {u, i, mul(un(Op::Sin, at(x, i)), v("i_val"))}, Type::unit()),
                                   Tuple::make({})));
  Expr total = Fold::make(ci(0), n, c(0), "i", "s", add(v("s"), mul(at(u, i), at(u, i))));
  Expr body = Let::make("u", NewArray::make(n, f64()), Let::make("_l", loop, total));
  p.functions.push_back(fn("f", {{"x", arr()}, {"n", Type::i64(), false}, {"i_val", f64()}}, body));
  Program q = inlining::inlineArrayWriters(p);
  EXPECT_FALSE(contains<Call>(q.find("f")->body)) << print(*q.find("f"));
  std::vector<Value> args{arrayOf({0.5, -1.5, 2.0}), Value::of(3), Value::of(0.7)};
  EXPECT_DOUBLE_EQ(evaluate(q, "f", copyArgs(args)).scalar, evaluate(p, "f", copyArgs(args)).scalar);
  check(q, args);
  // recursive helpers stay calls
  Program r = p;
  r.functions[0].body = Let::make("_", store(a, i, v("v")),
                                  If::make(Prim::make(Op::Gt, {i, ci(0)}),
                                           Call::make("set", {a, sub(i, ci(1)), v("v")}, Type::unit()), Tuple::make({})));
  EXPECT_TRUE(contains<Call>(inlining::inlineArrayWriters(r).find("f")->body));
}

TEST(Parallel, IndexDeterminedStateBecomesAFunctionOfTheIndex) {
  // fold i in [lo, n) from (s, k, p) = (0, 7, x[0]) ->
  //   let s1 = s#0 in let k1 = s#1 in let p1 = s#2 in
  //   let q = x[i] in (s1 + p1 * q * cast(k1), i, q)
  // k and p are determined by i (x is not written); s is the loop's state.
  Expr x = v("x", arr()), i = i64v("i"), lo = i64v("lo"), n = i64v("n");
  Expr st = v("s", Type::tuple({f64(), Type::i64(), f64()}));
  Expr next = Tuple::make({add(v("s1"), mul(mul(v("p1"), v("q")), Prim::makeCast(i64v("k1"), f64()))), i, v("q")});
  Expr body = Let::make("s1", Proj::make(st, 0),
                        Let::make("k1", Proj::make(st, 1),
                                  Let::make("p1", Proj::make(st, 2), Let::make("q", at(x, i), next))));
  Expr loop = Fold::make(lo, n, Tuple::make({c(0), ci(7), at(x, ci(0))}), "i", "s", body);
  Expr result = Let::make("r", loop,
                          add(add(Proj::make(v("r", loop->type), 0), Proj::make(v("r", loop->type), 2)),
                              Prim::makeCast(Proj::make(v("r", loop->type), 1), f64())));
  Program p;
  p.functions.push_back(fn("f", {{"x", arr()}, {"lo", Type::i64(), false}, {"n", Type::i64(), false}}, result));
  Program q = parallel::indexDeterminedState(p);
  const std::string text = print(q.functions[0].body);
  EXPECT_NE(text.find("from s_1 = 0.0"), std::string::npos) << text; // only the sum is carried
  EXPECT_NE(text.find("x[sub(i, 1)]"), std::string::npos) << text;
  EXPECT_NE(text.find("x[sub(n, 1)]"), std::string::npos) << text;
  for (long from : {0L, 1L, 4L, 6L}) { // 4 = n: no iteration; 6 > n: none either
    std::vector<Value> args{arrayOf({0.5, -1.5, 2.0, 3.25}), Value::of(double(from)), Value::of(4)};
    EXPECT_DOUBLE_EQ(evaluate(q, "f", copyArgs(args)).scalar, evaluate(p, "f", copyArgs(args)).scalar) << from;
    check(q, args);
  }
  // A loop that writes a double array keeps `p = y[i]` as state.
  Expr y = v("y", arr());
  Expr written = Fold::make(ci(0), n, c(1), "j", "t",
                            Let::make("_", store(y, i64v("j"), mul(at(y, i64v("j")), v("t"))), at(y, i64v("j"))));
  Program w;
  w.functions.push_back(fn("g", {{"y", arr()}, {"n", Type::i64(), false}}, written));
  EXPECT_EQ(print(parallel::indexDeterminedState(w).functions[0].body), print(written));
}

TEST(Parallel, CountingWhileLoopsBecomeFolds) {
  // while (s#1 op n) s := (s#0 + x[s#1] * x[s#1], s#1 + step) from (0, lo):
  // `!=` stepping by 1, `<` stepping by 2, `>` stepping by -1 (a counter
  // the condition compares with a bound the loop cannot change).
  Expr x = v("x", arr()), lo = i64v("lo"), n = i64v("n");
  TypeP stT = Type::tuple({f64(), Type::i64()});
  Expr st = v("s", stT);
  auto loop = [&](Op op, int64_t step, const Expr &bound) {
    Expr k1 = i64v("k1"), q = v("q");
    Expr body = Let::make("k1", Proj::make(st, 1),
                          Let::make("q", at(x, k1), Tuple::make({add(Proj::make(st, 0), mul(q, q)), add(k1, ci(step))})));
    return While::make(Tuple::make({c(0), lo}), "s", Prim::make(op, {Proj::make(st, 1), bound}), body);
  };
  struct Case {
    Op op;
    int64_t step;
    std::vector<long> starts;
  };
  for (const Case &k : {Case{Op::Ne, 1, {0, 2, 5}}, Case{Op::Lt, 2, {0, 1, 4, 5, 7}}, Case{Op::Gt, -1, {5, 3, 1, 0}}}) {
    Expr w = loop(k.op, k.step, k.op == Op::Gt ? sub(n, ci(5)) : n); // (`>` counts down to n - 5)
    Program p;
    p.functions.push_back(fn("f", {{"x", arr()}, {"lo", Type::i64(), false}, {"n", Type::i64(), false}},
                             Proj::make(w, 0)));
    Program q = parallel::countedWhileLoops(p);
    EXPECT_FALSE(contains<While>(q.functions[0].body)) << print(q.functions[0].body);
    EXPECT_TRUE(contains<Fold>(q.functions[0].body));
    for (long from : k.starts) {
      std::vector<Value> args{arrayOf({0.5, -1.5, 2.0, 3.25, -0.75, 1.25}), Value::of(double(from)), Value::of(5)};
      EXPECT_DOUBLE_EQ(evaluate(q, "f", copyArgs(args)).scalar, evaluate(p, "f", copyArgs(args)).scalar) << from;
      check(q, args);
    }
  }
  // A condition that reads memory, or a counter stepped only on some path, stays a while loop.
  Expr readsX = While::make(Tuple::make({c(0), lo}), "s", Prim::make(Op::Gt, {at(x, Proj::make(st, 1)), c(0)}),
                            Tuple::make({add(Proj::make(st, 0), c(1)), add(Proj::make(st, 1), ci(1))}));
  Expr conditional = While::make(
      Tuple::make({c(0), lo}), "s", Prim::make(Op::Ne, {Proj::make(st, 1), n}),
      Tuple::make({add(Proj::make(st, 0), c(1)),
                   If::make(Prim::make(Op::Gt, {Proj::make(st, 0), c(2)}), add(Proj::make(st, 1), ci(1)), Proj::make(st, 1))}));
  for (const Expr &w : {readsX, conditional}) {
    Program p;
    p.functions.push_back(fn("g", {{"x", arr()}, {"lo", Type::i64(), false}, {"n", Type::i64(), false}}, Proj::make(w, 0)));
    EXPECT_EQ(print(parallel::countedWhileLoops(p).functions[0].body), print(p.functions[0].body));
  }
}
