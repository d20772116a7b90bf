// Unit tests of the C++ printer (lib/printer): IR built by hand, printed,
// checked as text, and compiled/run with the host compilers.
#include "unfad/printer/cxx.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>

using namespace unfad::ir;
using unfad::printer::cxxName;
using unfad::printer::printFunction;
using unfad::printer::printPrototype;

namespace {

bool contains(const std::string &text, const std::string &part) { return text.find(part) != std::string::npos; }
bool lacks(const std::string &text, const std::string &part) { return !contains(text, part); }

TypeP F() { return Type::f64(); }
Expr v(const std::string &n, TypeP t = Type::f64()) { return Var::make(n, t); }
Expr c(double d) { return Const::make(d); }
Expr add(Expr a, Expr b) { return Prim::make(Op::Add, {a, b}); }
Expr sub(Expr a, Expr b) { return Prim::make(Op::Sub, {a, b}); }
Expr mul(Expr a, Expr b) { return Prim::make(Op::Mul, {a, b}); }
Expr dv(Expr a, Expr b) { return Prim::make(Op::Div, {a, b}); }
Expr neg(Expr a) { return Prim::make(Op::Neg, {a}); }
Expr let(const std::string &n, Expr val, Expr body) { return Let::make(n, val, body); }
Expr tup(std::vector<Expr> es) { return Tuple::make(std::move(es)); }

CxxInfo info(const std::string &name, std::string ret, std::vector<std::string> params, bool isStatic = false,
             bool isInline = false) {
  CxxInfo ci;
  ci.name = name;
  ci.qualifiedName = "::" + name;
  ci.returnType = std::move(ret);
  ci.paramTypes = std::move(params);
  ci.isStatic = isStatic;
  ci.isInline = isInline;
  return ci;
}

TypeP vec3() { return Type::structure("Vec3", {"x", "y", "z"}, {F(), F(), F()}); }
Expr vx(Expr a, int i) { return Proj::make(a, i); }

// f(x1: f64 active, x2: f64 active, n: i64) -> f64 = x1 * x2 * x1
Function primalF() {
  Function f;
  f.name = "f";
  f.params = {{"x1", F(), true}, {"x2", F(), true}, {"n", Type::i64(), false}};
  f.result = F();
  f.body = mul(mul(v("x1"), v("x2")), v("x1"));
  f.marked = true;
  f.cxx = info("f", "double", {"double", "double", "long"});
  return f;
}

Function gen(const Function &primal, const std::string &suffix, Expr body) {
  Function g;
  g.name = primal.name + suffix;
  g.params = primal.params;
  if (suffix == "$pullback") g.params.push_back({"d$ret", primal.result, false});
  g.body = std::move(body);
  g.result = g.body->type;
  return g;
}

Expr gradFBody() {
  // d/dx1 = 2 x1 x2 = x2*x1 + w1, d/dx2 = x1*x1
  return let("w1", mul(v("x1"), v("x2")),
             let("w2", mul(v("w1"), v("x1")),
                 let("d1", add(mul(v("x2"), v("x1")), v("w1")),
                     let("d2", mul(v("x1"), v("x1")), tup({v("w2"), v("d1"), v("d2")})))));
}

// Vec3 helpers: dot(a: Vec3 active, b: Vec3 active) -> f64 and
// energy(p: Vec3 active, k: f64 active) -> f64 = k * dot(p, p).
Function primalDot() {
  Function f;
  f.name = "dot";
  f.params = {{"a", vec3(), true}, {"b", vec3(), true}};
  f.result = F();
  Expr a = v("a", vec3()), b = v("b", vec3());
  f.body = add(add(mul(vx(a, 0), vx(b, 0)), mul(vx(a, 1), vx(b, 1))), mul(vx(a, 2), vx(b, 2)));
  f.cxx = info("dot", "double", {"const Vec3&", "const Vec3&"});
  return f;
}

Expr dotPullbackBody() {
  Expr a = v("a", vec3()), b = v("b", vec3()), d = v("d$ret");
  auto scaled = [&](Expr s) {
    return Tuple::makeStruct(vec3(), {mul(vx(s, 0), d), mul(vx(s, 1), d), mul(vx(s, 2), d)});
  };
  return tup({scaled(b), scaled(a)});
}

Function primalEnergy() {
  Function f;
  f.name = "energy";
  f.params = {{"p", vec3(), true}, {"k", F(), true}};
  f.result = F();
  f.body = mul(v("k"), Call::make("dot", {v("p", vec3()), v("p", vec3())}, F()));
  f.marked = true;
  f.cxx = info("energy", "double", {"const Vec3&", "double"});
  return f;
}

Expr gradEnergyBody() {
  Expr p = v("p", vec3());
  Expr t = v("t", Type::tuple({vec3(), vec3()}));
  Expr ta = Proj::make(t, 0), tb = Proj::make(t, 1);
  return let("e", Call::make("dot", {p, p}, F()),
             let("t", Pullback::make("dot", {p, p}, v("k"), Type::tuple({vec3(), vec3()})),
                 let("dp", Tuple::makeStruct(vec3(), {add(vx(ta, 0), vx(tb, 0)), add(vx(ta, 1), vx(tb, 1)),
                                                      add(vx(ta, 2), vx(tb, 2))}),
                     tup({mul(v("k"), v("e")), v("dp", vec3()), v("e")}))));
}

// h(x: f64 active) -> f64 = x > 0 ? x * x : -x
Function primalH() {
  Function f;
  f.name = "h";
  f.params = {{"x", F(), true}};
  f.result = F();
  f.body = If::make(Prim::make(Op::Gt, {v("x"), c(0)}), mul(v("x"), v("x")), neg(v("x")));
  f.cxx = info("h", "double", {"double"}, /*static*/ true);
  return f;
}

Expr gradHBody() {
  TypeP pair = Type::tuple({F(), F()});
  return let("c", Prim::make(Op::Gt, {v("x"), c(0)}),
             let("t",
                 If::make(v("c", Type::boolean()), let("s", mul(v("x"), v("x")), tup({v("s"), mul(c(2), v("x"))})),
                          tup({neg(v("x")), c(-1)})),
                 tup({Proj::make(v("t", pair), 0), Proj::make(v("t", pair), 1)})));
}

Program program() {
  Program p;
  p.functions = {primalF(), primalDot(), primalEnergy(), primalH()};
  return p;
}

// `e` printed as the returned value of f$grad.
std::string printedLet(Expr e) {
  Program p = program();
  Function g = gen(p.functions[0], "$grad", tup({e, c(0), c(0)}));
  std::string s = printFunction(g, p);
  size_t b = s.find("return ");
  size_t e2 = s.find(";", b);
  return s.substr(b + 7, e2 - b - 7);
}

TEST(Printer, GradOfProduct) {
  Program p = program();
  Function g = gen(p.functions[0], "$grad", gradFBody());
  EXPECT_EQ(cxxName(g, p), "f_grad");
  EXPECT_EQ(printPrototype(g, p), "double f_grad(double x1, double x2, long n, double* d_x1, double* d_x2);");
  EXPECT_EQ(printFunction(g, p),
            "double f_grad(double x1, double x2, [[maybe_unused]] long n, double* d_x1, double* d_x2) {\n"
            "  const double w1 = x1 * x2;\n"
            "  const double w2 = w1 * x1;\n"
            "  const double d1 = x2 * x1 + w1;\n"
            "  const double d2 = x1 * x1;\n"
            "  *d_x1 += d1;\n"
            "  *d_x2 += d2;\n"
            "  return w2;\n"
            "}\n");
}

TEST(Printer, Precedence) {
  Expr a = v("x1"), b = v("x2");
  EXPECT_EQ(printedLet(sub(a, sub(b, a))), "x1 - (x2 - x1)");
  EXPECT_EQ(printedLet(sub(sub(a, b), a)), "x1 - x2 - x1");
  EXPECT_EQ(printedLet(dv(a, mul(b, a))), "x1 / (x2 * x1)");
  EXPECT_EQ(printedLet(mul(add(a, b), a)), "(x1 + x2) * x1");
  EXPECT_EQ(printedLet(add(a, mul(b, a))), "x1 + x2 * x1");
  EXPECT_EQ(printedLet(add(a, add(b, a))), "x1 + (x2 + x1)");
  EXPECT_EQ(printedLet(neg(add(a, b))), "-(x1 + x2)");
  EXPECT_EQ(printedLet(neg(neg(a))), "-(-x1)");
  EXPECT_EQ(printedLet(sub(a, c(-2))), "x1 - (-2.0)");
  EXPECT_EQ(printedLet(sub(a, neg(b))), "x1 - (-x2)");
  EXPECT_EQ(printedLet(mul(c(-2), a)), "-2.0 * x1");
  EXPECT_EQ(printedLet(mul(neg(a), b)), "-x1 * x2");
  EXPECT_EQ(printedLet(Prim::make(Op::Pow, {a, c(0.5)})), "std::pow(x1, 0.5)");
  EXPECT_EQ(printedLet(Prim::make(Op::Hypot, {a, c(1e-8)})), "std::hypot(x1, 1e-08)");
  EXPECT_EQ(printedLet(Prim::make(Op::Fabs, {sub(a, b)})), "std::fabs(x1 - x2)");
  EXPECT_EQ(printedLet(mul(c(0.1), c(3))), "0.1 * 3.0");
  EXPECT_EQ(printedLet(Prim::makeCast(v("n", Type::i64()), F())), "static_cast<double>(n)");
  EXPECT_EQ(printedLet(Prim::makeCast(Const::makeInt(3), F())), "3.0");
  EXPECT_EQ(printedLet(mul(Prim::make(Op::Sign, {a}), b)), "static_cast<double>((x1 > 0.0) - (x1 < 0.0)) * x2");
}

TEST(Printer, PredicatesAndIntegers) {
  Program p = program();
  Expr a = v("x1"), n = v("n", Type::i64());
  Expr lt = Prim::make(Op::Lt, {a, v("x2")});
  Expr ne = Prim::make(Op::Ne, {Prim::make(Op::Mod, {n, Const::makeInt(2)}), Const::makeInt(0)});
  Expr cond = Prim::make(Op::Or, {Prim::make(Op::And, {lt, ne}), Prim::make(Op::Not, {lt})});
  Function g = gen(p.functions[0], "$grad",
                   let("m", Prim::make(Op::Mul, {n, Const::makeInt(-3)}),
                       let("b", cond,
                           let("r", If::make(v("b", Type::boolean()), Prim::makeCast(v("m", Type::i64()), F()), a),
                               tup({v("r"), c(1), c(0)})))));
  std::string s = printFunction(g, p);
  EXPECT_PRED2(contains, s, "const long m = n * (-3);\n");
  // `lt` is one shared node: computed once
  EXPECT_PRED2(contains, s, "const bool tmp = x1 < x2;\n  const bool b = (tmp && n % 2 != 0) || !tmp;\n");
  EXPECT_PRED2(contains, s, "  double r;\n  if (b) {\n    r = static_cast<double>(m);\n  } else {\n    r = x1;\n  }\n");
  EXPECT_PRED2(contains, s, "*d_x1 += 1.0;\n");
  EXPECT_PRED2(lacks, s, "d_x2 +=");
  EXPECT_PRED2(contains, s, "[[maybe_unused]] double* d_x2");
}

TEST(Printer, StructPullback) {
  Program p = program();
  Function g = gen(p.functions[1], "$pullback", dotPullbackBody());
  EXPECT_EQ(cxxName(g, p), "dot_pullback");
  EXPECT_EQ(printFunction(g, p),
            "inline void dot_pullback(const Vec3& a, const Vec3& b, double d_return, Vec3* d_a, Vec3* d_b) {\n"
            "  d_a->x += b.x * d_return;\n"
            "  d_a->y += b.y * d_return;\n"
            "  d_a->z += b.z * d_return;\n"
            "  d_b->x += a.x * d_return;\n"
            "  d_b->y += a.y * d_return;\n"
            "  d_b->z += a.z * d_return;\n"
            "}\n");
}

TEST(Printer, PullbackCallAndStructCotangent) {
  Program p = program();
  Function g = gen(p.functions[2], "$grad", gradEnergyBody());
  EXPECT_EQ(printFunction(g, p),
            "double energy_grad(const Vec3& p, double k, Vec3* d_p, double* d_k) {\n"
            "  const double e = ::dot(p, p);\n"
            "  Vec3 t_a{};\n"
            "  Vec3 t_b{};\n"
            "  dot_pullback(p, p, k, &t_a, &t_b);\n"
            "  const Vec3 dp{t_a.x + t_b.x, t_a.y + t_b.y, t_a.z + t_b.z};\n"
            "  d_p->x += dp.x;\n"
            "  d_p->y += dp.y;\n"
            "  d_p->z += dp.z;\n"
            "  *d_k += e;\n"
            "  return k * e;\n"
            "}\n");
}

TEST(Printer, IfValuedLet) {
  Program p = program();
  Function g = gen(p.functions[3], "$grad", gradHBody());
  EXPECT_EQ(printFunction(g, p),
            "static double h_grad(double x, double* d_x) {\n"
            "  const bool c = x > 0.0;\n"
            "  double t_0;\n"
            "  double t_1;\n"
            "  if (c) {\n"
            "    const double s = x * x;\n"
            "    t_0 = s;\n"
            "    t_1 = 2.0 * x;\n"
            "  } else {\n"
            "    t_0 = -x;\n"
            "    t_1 = -1.0;\n"
            "  }\n"
            "  *d_x += t_1;\n"
            "  return t_0;\n"
            "}\n");
  // a pullback of a static function is static inline
  Function pb = gen(p.functions[3], "$pullback", tup({mul(v("d$ret"), v("x"))}));
  EXPECT_EQ(printPrototype(pb, p), "static inline void h_pullback(double x, double d_return, double* d_x);");
}

TEST(Printer, NestedIfAndDeadComponents) {
  Program p = program();
  TypeP pair = Type::tuple({F(), F()});
  Expr cnd = Prim::make(Op::Lt, {v("x1"), v("x2")});
  // an if in expression position, and a tuple let whose second half is unused
  Function g = gen(p.functions[0], "$grad",
                   let("q", tup({mul(v("x1"), v("x1")), mul(v("x2"), v("x2"))}),
                       tup({add(If::make(cnd, v("x1"), v("x2")), c(1)), Proj::make(v("q", pair), 0), c(0)})));
  std::string s = printFunction(g, p);
  EXPECT_PRED2(contains, s, "const double q_0 = x1 * x1;\n");
  EXPECT_PRED2(lacks, s, "q_1");
  EXPECT_PRED2(contains, s, "  double tmp;\n  if (x1 < x2) {\n    tmp = x1;\n  } else {\n    tmp = x2;\n  }\n");
  EXPECT_PRED2(contains, s, "return tmp + 1.0;");
}

TEST(Printer, NamesAreSanitisedWithoutCollisions) {
  Program p = program();
  Function g = gen(p.functions[0], "$grad",
                   let("w$1", mul(v("x1"), v("x2")),
                       let("w.1", add(v("w$1"), v("x1")),
                           let("w_1", sub(v("w.1"), v("x2")),
                               let("d_x1", mul(v("w_1"), v("w$1")), tup({v("d_x1"), v("w_1"), v("w.1")}))))));
  std::string s = printFunction(g, p);
  // `w_1` and the adjoint `d_x1` keep their names; the others avoid them
  EXPECT_PRED2(contains, s, "const double w_1_1 = x1 * x2;\n");
  EXPECT_PRED2(contains, s, "const double w_1_2 = w_1_1 + x1;\n");
  EXPECT_PRED2(contains, s, "const double w_1 = w_1_2 - x2;\n");
  EXPECT_PRED2(contains, s, "const double d_x1_1 = w_1 * w_1_1;\n");
  EXPECT_PRED2(contains, s, "double* d_x1, double* d_x2)");
  EXPECT_PRED2(contains, s, "*d_x1 += w_1;\n");
  EXPECT_PRED2(contains, s, "return d_x1_1;\n");
}

TEST(Printer, FloatConstantsAndZeroStructCotangent) {
  Program p;
  Function f;
  f.name = "g";
  f.params = {{"x", Type::f32(), true}, {"v", vec3(), true}};
  f.result = Type::f32();
  f.body = v("x", Type::f32());
  f.cxx = info("g", "float", {"float", "const Vec3&"}, false, true);
  p.functions = {f};
  Expr x = v("x", Type::f32());
  Function g = gen(f, "$grad",
                   tup({mul(x, Const::make(0.5, Type::f32())), Const::make(1, Type::f32()), Const::zero(vec3())}));
  EXPECT_EQ(printFunction(g, p),
            "inline float g_grad(float x, [[maybe_unused]] const Vec3& v, float* d_x, [[maybe_unused]] Vec3* d_v) {\n"
            "  *d_x += 1.0f;\n"
            "  return x * 0.5f;\n"
            "}\n");
}

TEST(Printer, StructIfSignAndTailPullback) {
  Program p = program();
  Function len;
  len.name = "geo::len";
  len.params = {{"v", vec3(), true}, {"s", Type::f32(), true}, {"k", Type::i64(), false}};
  len.result = vec3();
  len.body = v("v", vec3());
  len.cxx = info("len", "Vec3", {"Vec3", "float", "long"});
  len.cxx.qualifiedName = "::geo::len";
  len.cxx.isConstexpr = true;
  p.functions.push_back(len);
  Expr vv = v("v", vec3()), s = v("s", Type::f32()), dr = v("d$ret", vec3());
  Expr t = If::make(v("c", Type::boolean()),
                    let("q", mul(vx(dr, 0), vx(vv, 1)), Tuple::makeStruct(vec3(), {v("q"), vx(dr, 1), neg(v("q"))})),
                    dr);
  Expr pb = Pullback::make("h", {vx(vv, 0)}, vx(v("t", vec3()), 0), Type::tuple({F()}));
  Expr body = let(
      "c", Prim::make(Op::Gt, {v("k", Type::i64()), Const::makeInt(0)}),
      let("t", t,
          let("pb", pb,
              tup({Tuple::makeStruct(vec3(), {Proj::make(v("pb", Type::tuple({F()})), 0), c(0), c(0)}),
                   mul(Prim::make(Op::Sign, {add(s, s)}), Const::make(2, Type::f32()))}))));
  Function g = gen(len, "$pullback", body);
  EXPECT_EQ(printFunction(g, p),
            "inline void len_pullback(Vec3 v, float s, long k, Vec3 d_return, Vec3* d_v, float* d_s) {\n"
            "  const bool c = k > 0;\n"
            "  Vec3 t;\n"
            "  if (c) {\n"
            "    const double q = d_return.x * v.y;\n"
            "    t = Vec3{q, d_return.y, -q};\n"
            "  } else {\n"
            "    t = d_return;\n"
            "  }\n"
            "  double pb_x = 0.0;\n"
            "  h_pullback(v.x, t.x, &pb_x);\n"
            "  const float sgn_arg = s + s;\n"
            "  d_v->x += pb_x;\n"
            "  *d_s += static_cast<float>((sgn_arg > 0.0f) - (sgn_arg < 0.0f)) * 2.0f;\n"
            "}\n");
  // the struct result of a grad is returned; a pullback can be the whole body
  Function grad = gen(len, "$grad",
                      tup({Tuple::makeStruct(vec3(), {c(1e20), c(-0.0), Prim::makeCast(v("k", Type::i64()), F())}),
                           vv, Const::make(0, Type::f32())}));
  EXPECT_EQ(printFunction(grad, p),
            "inline Vec3 len_grad(Vec3 v, [[maybe_unused]] float s, long k, Vec3* d_v, [[maybe_unused]] float* d_s) {\n"
            "  d_v->x += v.x;\n"
            "  d_v->y += v.y;\n"
            "  d_v->z += v.z;\n"
            "  return Vec3{1e+20, -0.0, static_cast<double>(k)};\n"
            "}\n");
  Function tail = gen(p.functions[3], "$pullback", Pullback::make("h", {v("x")}, v("d$ret"), Type::tuple({F()})));
  EXPECT_EQ(printFunction(tail, p),
            "static inline void h_pullback(double x, double d_return, double* d_x) {\n"
            "  double d_h_x = 0.0;\n"
            "  h_pullback(x, d_return, &d_h_x);\n"
            "  *d_x += d_h_x;\n"
            "}\n");
}

TEST(Printer, SharedNodesAreComputedOnce) {
  Program p = program();
  // a DAG of 2^40 tree nodes: e_{i+1} = e_i * e_i
  Expr e = add(v("x1"), v("x2"));
  for (int i = 0; i < 40; ++i) e = mul(e, e);
  Function g = gen(p.functions[0], "$grad", tup({e, e, c(0)}));
  std::string s = printFunction(g, p);
  EXPECT_LT(s.size(), 3000u);
  EXPECT_PRED2(contains, s, "const double tmp = x1 + x2;\n  const double tmp_1 = tmp * tmp;\n");
  EXPECT_PRED2(contains, s, "const double res_0 = tmp_39 * tmp_39;\n  *d_x1 += res_0;\n  return res_0;\n");
  // the same node under two bindings of `y` means two different things
  Expr yy = mul(v("y"), v("y"));
  Expr body = add(let("y", v("x1"), yy), let("y", v("x2"), yy));
  std::string s2 = printFunction(gen(p.functions[0], "$grad", tup({body, c(0), c(0)})), p);
  EXPECT_PRED2(contains, s2, "const double tmp = x1 * x1;\n  const double tmp_1 = x2 * x2;\n  return tmp + tmp_1;\n");
  // shared member accesses of a variable stay inline
  Function pb = gen(p.functions[1], "$pullback", [] {
    Expr ax = vx(v("a", vec3()), 0), d = v("d$ret");
    Expr z = c(0);
    return tup({Tuple::makeStruct(vec3(), {mul(ax, ax), z, z}), Tuple::makeStruct(vec3(), {mul(ax, d), z, z})});
  }());
  EXPECT_PRED2(contains, printFunction(pb, p), "  d_a->x += a.x * a.x;\n  d_b->x += a.x * d_return;\n");
  // a value computed inside a branch is not reused after it
  Expr sq = mul(v("x1"), v("x1"));
  Expr br = If::make(Prim::make(Op::Lt, {v("x1"), v("x2")}), add(sq, sq), c(0));
  std::string s3 = printFunction(gen(p.functions[0], "$grad", tup({add(br, sq), sq, c(0)})), p);
  EXPECT_PRED2(contains, s3, "  if (x1 < x2) {\n    const double tmp_1 = x1 * x1;\n    tmp = tmp_1 + tmp_1;\n");
  EXPECT_PRED2(contains, s3, "  const double tmp_2 = x1 * x1;\n  *d_x1 += tmp_2;\n  return tmp + tmp_2;\n");
}

TEST(Printer, RejectsBadInput) {
  Program p = program();
  Function g = gen(p.functions[0], "$grad", tup({v("x1"), c(0)}));
  EXPECT_THROW(printFunction(g, p), IRError);
  g.name = "nope$grad";
  EXPECT_THROW(cxxName(g, p), IRError);
}

// ------------------------------------------------------------ compile ----

std::string run(const std::string &cmd) {
  std::string out;
  FILE *pipe = popen(cmd.c_str(), "r");
  if (!pipe) return "popen failed";
  char buf[512];
  while (size_t n = fread(buf, 1, sizeof buf, pipe)) out.append(buf, n);
  int rc = pclose(pipe);
  if (rc != 0) out += "\n[exit status " + std::to_string(rc) + "]";
  return out;
}

TEST(Printer, GeneratedCodeCompilesAndIsRight) {
  Program p = program();
  std::string code = "#include <cmath>\n#include <cstdio>\n"
                     "struct Vec3 { double x, y, z; };\n"
                     "double dot(const Vec3& a, const Vec3& b) { return a.x * b.x + a.y * b.y + a.z * b.z; }\n";
  code += printFunction(gen(p.functions[1], "$pullback", dotPullbackBody()), p);
  code += printFunction(gen(p.functions[0], "$grad", gradFBody()), p);
  code += printFunction(gen(p.functions[2], "$grad", gradEnergyBody()), p);
  code += printFunction(gen(p.functions[3], "$grad", gradHBody()), p);
  code += R"(
int main() {
  double d1 = 0, d2 = 0;
  double f = f_grad(1.5, -2.0, 7, &d1, &d2);
  Vec3 dp{0, 0, 0};
  double dk = 0;
  double e = energy_grad(Vec3{1, 2, 3}, 0.5, &dp, &dk);
  double dxa = 0, dxb = 0;
  double ha = h_grad(3.0, &dxa), hb = h_grad(-2.0, &dxb);
  std::printf("%.6f %.6f %.6f|%.6f %.6f %.6f %.6f %.6f|%.6f %.6f %.6f %.6f\n", f, d1, d2, e, dp.x, dp.y, dp.z, dk,
              ha, dxa, hb, dxb);
}
)";
  char dir[] = "/tmp/unfad_printer_XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  std::string src = std::string(dir) + "/gen.cpp";
  std::ofstream(src) << code;
  // f = x1^2 x2 -> (2 x1 x2, x1^2); energy = k |p|^2 -> (2 k p, |p|^2);
  // h = x > 0 ? x^2 : -x -> (2x | -1)
  const std::string expected =
      "-4.500000 -6.000000 2.250000|7.000000 1.000000 2.000000 3.000000 14.000000|9.000000 6.000000 2.000000 -1.000000\n";
  int compilers = 0;
  for (std::string cxx : {"g++", "clang++"}) {
    if (std::system(("command -v " + cxx + " >/dev/null 2>&1").c_str()) != 0) continue;
    ++compilers;
    std::string exe = std::string(dir) + "/gen_" + cxx.substr(0, 3);
    std::string log = run(cxx + " -std=c++17 -Wall -Wextra -Werror -o " + exe + " " + src + " 2>&1");
    ASSERT_EQ(log, "") << cxx << " failed on:\n" << code;
    EXPECT_EQ(run(exe), expected) << cxx;
  }
  EXPECT_GT(compilers, 0);
  std::system(("rm -rf " + std::string(dir)).c_str());
}

} // namespace
