// Unit tests of the C++ printer (lib/printer): IR built by hand, printed,
// checked as text, and compiled/run with the host compilers.
#include "unfad/printer/cxx.h"
#include "unfad/ir/json.h"

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

// What the front end says of the C++ types these tests use (CxxType), by
// their spelling as Clang prints it.
CxxType describe(const std::string &spelling) {
  using K = CxxType::Kind;
  auto scalar = [](const std::string &value, bool isUnsigned = false) {
    CxxType t;
    t.kind = K::Scalar;
    t.isUnsigned = isUnsigned;
    t.valueSpelling = value;
    return t;
  };
  auto with = [](CxxType t, const std::string &before, const std::string &after, const std::string &adjointBefore,
                 const std::string &adjointAfter) {
    t.declBefore = before;
    t.declAfter = after;
    t.adjointBefore = adjointBefore;
    t.adjointAfter = adjointAfter;
    return t;
  };
  auto array = [](K kind, bool isConst, bool isReference, uint64_t bound, const std::string &value) {
    CxxType t;
    t.kind = kind;
    t.isConst = isConst;
    t.isReference = isReference;
    t.bound = bound;
    t.valueSpelling = value;
    CxxType element;
    element.valueSpelling = "double";
    t.element.push_back(element);
    return t;
  };
  if (spelling == "void") {
    CxxType t;
    t.kind = K::Void;
    t.valueSpelling = "void";
    return t;
  }
  if (spelling == "double" || spelling == "float" || spelling == "int" || spelling == "long")
    return with(scalar(spelling), spelling + " ", "", spelling + "* ", "");
  if (spelling == "std::size_t") return with(scalar(spelling, true), "std::size_t ", "", "std::size_t* ", "");
  if (spelling == "Vec3") {
    CxxType t = with(scalar("Vec3"), "Vec3 ", "", "Vec3* ", "");
    t.kind = K::Struct;
    return t;
  }
  if (spelling == "const Vec3&") {
    CxxType t = with(scalar("Vec3"), "const Vec3& ", "", "Vec3* ", "");
    t.kind = K::Struct;
    t.isConst = t.isReference = true;
    return t;
  }
  if (spelling == "const double *")
    return with(array(K::Pointer, true, false, 0, "const double*"), "const double* ", "", "double* ", "");
  if (spelling == "double *") return with(array(K::Pointer, false, false, 0, "double*"), "double* ", "", "double* ", "");
  if (spelling == "const double (&)[3]")
    return with(array(K::CArray, true, true, 3, "double[3]"), "const double (&", ")[3]", "double* ", "");
  if (spelling == "const std::vector<double> &")
    return with(array(K::Vector, true, true, 0, "std::vector<double>"), "const std::vector<double>& ", "",
                "std::vector<double>& ", "");
  ADD_FAILURE() << "no description of '" << spelling << "'";
  return CxxType();
}

CxxInfo info(const std::string &name, std::string ret, std::vector<std::string> params, bool isStatic = false,
             bool isInline = false) {
  CxxInfo ci;
  ci.name = name;
  ci.qualifiedName = "::" + name;
  ci.result = describe(ret);
  for (auto &p : params) ci.params.push_back(describe(p));
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
            "  Vec3 t_a{0.0, 0.0, 0.0};\n"
            "  Vec3 t_b{0.0, 0.0, 0.0};\n"
            "  (dot_pullback)(p, p, k, &t_a, &t_b);\n"
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
            "[[maybe_unused]] static double h_grad(double x, double* d_x) {\n"
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
            "  Vec3 t{0.0, 0.0, 0.0};\n"
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

TEST(Printer, OperatorHelpersGetIdentifierNames) {
  Program p = program();
  Function op = primalDot();
  op.name = "op_plus";
  op.cxx = info("operator+", "double", {"const Vec3&", "const Vec3&"});
  p.functions.push_back(op);
  Function pb = gen(op, "$pullback", dotPullbackBody());
  EXPECT_EQ(cxxName(pb, p), "operator_plus_pullback");
  EXPECT_PRED2(contains, printPrototype(pb, p), "inline void operator_plus_pullback(const Vec3& a, const Vec3& b,");
  Function caller = gen(p.functions[2], "$grad",
                        let("t", Pullback::make("op_plus", {v("p", vec3()), v("p", vec3())}, v("k"), Type::tuple({vec3(), vec3()})),
                            tup({c(0), Proj::make(v("t", Type::tuple({vec3(), vec3()})), 0), c(0)})));
  EXPECT_PRED2(contains, printFunction(caller, p), "  (operator_plus_pullback)(p, p, k, &t_a, &t_b);\n");
}

TEST(Printer, RejectsBadInput) {
  Program p = program();
  Function g = gen(p.functions[0], "$grad", tup({v("x1"), c(0)}));
  EXPECT_THROW(printFunction(g, p), IRError);
  g.name = "nope$grad";
  EXPECT_THROW(cxxName(g, p), IRError);
}

// ------------------------------------------------------- arrays, loops ----

TypeP I() { return Type::i64(); }
TypeP A(TypeP elem = Type::f64()) { return Type::array(std::move(elem)); }
Expr iv(const std::string &n) { return Var::make(n, Type::i64()); }
Expr av(const std::string &n) { return Var::make(n, A()); }
Expr ci(int64_t k) { return Const::makeInt(k); }
Expr at(Expr a, Expr i) { return Index::make(std::move(a), std::move(i)); }
Expr unit() { return Tuple::make({}); }
Expr addTo(Expr a, Expr i, Expr x) { return Store::make(std::move(a), std::move(i), std::move(x), Store::Mode::Add); }
Expr setAt(Expr a, Expr i, Expr x) { return Store::make(std::move(a), std::move(i), std::move(x), Store::Mode::Set); }
Expr fold(Expr lo, Expr hi, Expr init, const std::string &i, const std::string &s, Expr body, bool rev = false) {
  return Fold::make(std::move(lo), std::move(hi), std::move(init), i, s, std::move(body), rev);
}
Expr effect(Expr e, Expr body) { return let("_", std::move(e), std::move(body)); }

Function primalFn(const std::string &name, std::vector<Param> params, TypeP result, std::vector<std::string> spell,
                  std::string ret) {
  Function f;
  f.name = name;
  f.params = std::move(params);
  f.result = result;
  f.body = Const::zero(result);
  f.marked = true;
  f.cxx = info(name, std::move(ret), std::move(spell));
  return f;
}

// f$grad / g$pullback: `gen` plus one buffer `d_<x>` per active array parameter.
Function genA(const Function &primal, const std::string &suffix, Expr body) {
  Function g = gen(primal, suffix, std::move(body));
  for (auto &p : primal.params)
    if (p.active && p.type->isArray()) g.params.push_back({"d_" + p.name, p.type, false});
  return g;
}

// ssq(const double* x, int n) = sum x[i]^2, by hand in the AD's shape: a
// forward fold, then a reversed fold with unit state storing into d_x.
Function primalSsq() {
  return primalFn("ssq", {{"x", A(), true}, {"n", I(), false}}, F(), {"const double *", "int"}, "double");
}
Expr gradSsqBody(Expr hi1, Expr hi2) {
  Expr x = av("x");
  Expr fwd = fold(ci(0), hi1, c(0), "i", "acc", let("t", at(x, iv("i")), add(v("acc"), mul(v("t"), v("t")))));
  Expr bwd = fold(ci(0), hi2, unit(), "j", "u",
                  effect(addTo(av("d_x"), iv("j"), mul(mul(c(2), at(x, iv("j"))), c(1))), unit()), true);
  return let("s", fwd, let("_u", bwd, tup({v("s"), unit()})));
}
Function primalSsqVec() {
  return primalFn("ssqv", {{"x", A(), true}}, F(), {"const std::vector<double> &"}, "double");
}

// wsum(const double* w, double c, int n) = sum w[i] * c, a helper; and
// outer(const std::vector<double>& x, double k, int n) = k * wsum(x.data(), k, n).
Function primalWsum() {
  Function f = primalFn("wsum", {{"w", A(), true}, {"c", F(), true}, {"n", I(), false}}, F(),
                        {"const double *", "double", "int"}, "double");
  f.marked = false;
  return f;
}
Expr wsumPullbackBody() {
  Expr body = effect(addTo(av("d_w"), iv("i"), mul(v("c"), v("d$ret"))),
                     add(v("a"), mul(at(av("w"), iv("i")), v("d$ret"))));
  return let("dc", fold(ci(0), iv("n"), c(0), "i", "a", body), tup({unit(), v("dc")}));
}
Function primalOuter() {
  return primalFn("outer", {{"x", A(), true}, {"k", F(), true}, {"n", I(), false}}, F(),
                  {"const std::vector<double> &", "double", "int"}, "double");
}
Expr gradOuterBody() {
  std::vector<Expr> args{av("x"), v("k"), iv("n")};
  TypeP pt = Type::tuple({Type::unit(), F()});
  return let("y", Call::make("wsum", args, F()),
             let("pb", Pullback::make("wsum", args, v("k"), pt, {av("d_x")}),
                 tup({mul(v("k"), v("y")), unit(), add(v("y"), Proj::make(v("pb", pt), 1))})));
}

// dbl(x): y = x; while (y < 100) y *= 2 -> dy/dx = 2^k, k iterations
// counted in the loop state and replayed by a fold. With `viaLet`, the
// condition needs a statement of its own (y*y < 1e4).
Function primalDbl(const std::string &name) { return primalFn(name, {{"x", F(), true}}, F(), {"double"}, "double"); }
Expr gradDblBody(bool viaLet) {
  TypeP st = Type::tuple({F(), I()});
  Expr sv = v("st", st);
  Expr cond = viaLet ? let("q", mul(Proj::make(sv, 0), Proj::make(sv, 0)), Prim::make(Op::Lt, {v("q"), c(1e4)}))
                     : Prim::make(Op::Lt, {Proj::make(sv, 0), c(100)});
  Expr body = let("y", Proj::make(sv, 0), let("k", Proj::make(sv, 1), tup({mul(v("y"), c(2)), add(iv("k"), ci(1))})));
  Expr w = While::make(tup({v("x"), ci(0)}), "st", cond, body);
  Expr wv = v("w", st);
  return let("w", w, let("dx", fold(ci(0), Proj::make(wv, 1), c(1), "i", "d", mul(v("d"), c(2))),
                         tup({Proj::make(wv, 0), v("dx")})));
}

// horner(const double* c, double x, int n) = sum c[i] x^i with its
// derivative carried along: a tuple state whose second component reads the
// first one's old value.
Function primalHorner() {
  return primalFn("horner", {{"c", A(), false}, {"x", F(), true}, {"n", I(), false}}, F(),
                  {"const double *", "double", "int"}, "double");
}
Expr gradHornerBody() {
  TypeP pt = Type::tuple({F(), F()});
  Expr sv = v("st", pt);
  Expr body = let("p", Proj::make(sv, 0),
                  let("dp", Proj::make(sv, 1),
                      tup({add(mul(v("p"), v("x")), at(av("c"), iv("i"))), add(mul(v("dp"), v("x")), v("p"))})));
  Expr r = fold(ci(0), iv("n"), tup({c(0), c(0)}), "i", "st", body, true);
  return let("r", r, tup({Proj::make(v("r", pt), 0), Proj::make(v("r", pt), 1)}));
}
// fib(x, n): (a, b) := (b, a + b) n times from (1, x), with (da, db).
Function primalFib() {
  return primalFn("fib", {{"x", F(), true}, {"n", I(), false}}, F(), {"double", "long"}, "double");
}
Expr gradFibBody() {
  TypeP st = Type::tuple({F(), F(), F(), F()});
  Expr sv = v("st", st);
  Expr body = let("a", Proj::make(sv, 0),
                  let("b", Proj::make(sv, 1),
                      let("da", Proj::make(sv, 2),
                          let("db", Proj::make(sv, 3),
                              tup({v("b"), add(v("a"), v("b")), v("db"), add(v("da"), v("db"))})))));
  Expr r = fold(ci(0), iv("n"), tup({c(1), v("x"), c(0), c(1)}), "i", "st", body);
  return let("r", r, tup({Proj::make(v("r", st), 1), Proj::make(v("r", st), 3)}));
}

// prod(const std::vector<double>& x): a tape (NewArray) written by the
// forward loop and read by the backward one.
Function primalProd() { return primalFn("prod", {{"x", A(), true}}, F(), {"const std::vector<double> &"}, "double"); }
Expr gradProdBody() {
  Expr x = av("x"), tape = av("tape");
  Expr fwd = fold(ci(0), Size::make(x), c(1), "i", "acc",
                  effect(setAt(tape, iv("i"), v("acc")), mul(v("acc"), at(x, iv("i")))));
  Expr bwd = fold(ci(0), Size::make(x), c(1), "j", "suf",
                  effect(addTo(av("d_x"), iv("j"), mul(at(tape, iv("j")), v("suf"))), mul(v("suf"), at(x, iv("j")))),
                  true);
  return let("tape", NewArray::make(Size::make(x), F()), let("p", fwd, let("_r", bwd, tup({v("p"), unit()}))));
}

// scale(const double* x, double* out, double k, int n) { out[i] = k * x[i]; }:
// a void marked function with an output.
Function primalScale() {
  Function f = primalFn("scale", {{"x", A(), true}, {"out", A(), true, true}, {"k", F(), true}, {"n", I(), false}},
                        Type::unit(), {"const double *", "double *", "double", "int"}, "void");
  return f;
}
Expr gradScaleBody() {
  Expr fwd = fold(ci(0), iv("n"), unit(), "i", "u", effect(setAt(av("out"), iv("i"), mul(v("k"), at(av("x"), iv("i")))), unit()));
  Expr bwd = fold(ci(0), iv("n"), c(0), "j", "a",
                  let("g", at(av("d_out"), iv("j")),
                      effect(addTo(av("d_x"), iv("j"), mul(v("k"), v("g"))), add(v("a"), mul(at(av("x"), iv("j")), v("g"))))),
                  true);
  return let("_f", fwd, let("dk", bwd, tup({unit(), unit(), unit(), v("dk")})));
}
// sq_into(const double* x, double* out, int n) { out[i] = x[i]^2; }, a void
// helper, and sq_all, a marked void function calling it.
Function primalSqInto() {
  Function f = primalFn("sq_into", {{"x", A(), true}, {"out", A(), true, true}, {"n", I(), false}}, Type::unit(),
                        {"const double *", "double *", "int"}, "void");
  f.marked = false;
  f.body = fold(ci(0), iv("n"), unit(), "i", "u", effect(setAt(av("out"), iv("i"), mul(at(av("x"), iv("i")), at(av("x"), iv("i")))), unit()));
  return f;
}
Expr sqIntoPullbackBody() {
  Expr l = fold(ci(0), iv("n"), unit(), "i", "u",
                effect(addTo(av("d_x"), iv("i"), mul(mul(c(2), at(av("x"), iv("i"))), at(av("d_out"), iv("i")))), unit()));
  return let("_l", l, tup({unit(), unit()}));
}
Function primalSqAll() {
  return primalFn("sq_all", {{"x", A(), true}, {"out", A(), true, true}, {"n", I(), false}}, Type::unit(),
                  {"const double *", "double *", "int"}, "void");
}
Expr gradSqAllBody() {
  std::vector<Expr> args{av("x"), av("out"), iv("n")};
  TypeP pt = Type::tuple({Type::unit(), Type::unit()});
  return effect(Call::make("sq_into", args, Type::unit()),
                let("_p", Pullback::make("sq_into", args, unit(), pt, {av("d_x"), av("d_out")}), tup({unit(), unit(), unit()})));
}

// pairs(const double* x, std::size_t n) = sum_i sum_j x[i] x[j]: nested
// folds, an unsigned size parameter.
Function primalPairs() {
  return primalFn("pairs", {{"x", A(), true}, {"n", I(), false}}, F(), {"const double *", "std::size_t"}, "double");
}
Expr gradPairsBody() {
  Expr x = av("x");
  Expr inner = fold(ci(0), iv("n"), c(0), "j", "b", add(v("b"), mul(at(x, iv("i")), at(x, iv("j")))));
  Expr fwd = fold(ci(0), iv("n"), c(0), "i", "a", add(v("a"), inner));
  Expr binner = fold(ci(0), iv("n"), unit(), "j2", "u2",
                     effect(addTo(av("d_x"), iv("i2"), at(x, iv("j2"))), effect(addTo(av("d_x"), iv("j2"), at(x, iv("i2"))), unit())));
  Expr bwd = fold(ci(0), iv("n"), unit(), "i2", "u", binner, true);
  return let("s", fwd, let("_b", bwd, tup({v("s"), unit()})));
}

// sum3(const double (&x)[3]): the bound of a C array reference is its size.
Function primalSum3() { return primalFn("sum3", {{"x", A(), true}}, F(), {"const double (&)[3]"}, "double"); }
Expr gradSum3Body() {
  Expr fwd = fold(ci(0), Size::make(av("x")), c(0), "i", "s", add(v("s"), at(av("x"), iv("i"))));
  Expr bwd = fold(ci(0), Size::make(av("x")), unit(), "j", "u", effect(addTo(av("d_x"), iv("j"), c(1)), unit()));
  return let("r", fwd, let("_b", bwd, tup({v("r"), unit()})));
}

Program arrayProgram() {
  Program p;
  p.functions = {primalSsq(),   primalSsqVec(),   primalWsum(),    primalOuter(), primalDbl("dbl"),
                 primalDbl("dbl2"), primalHorner(), primalFib(),     primalProd(),  primalScale(),
                 primalSqInto(), primalSqAll(),   primalPairs(),   primalSum3()};
  return p;
}
const Function &fn(const Program &p, const std::string &name) { return *p.find(name); }

TEST(PrinterArrays, SumOfSquaresGradient) {
  Program p = arrayProgram();
  Function g = genA(fn(p, "ssq"), "$grad", gradSsqBody(iv("n"), iv("n")));
  EXPECT_EQ(printPrototype(g, p), "double ssq_grad(const double* x, int n, double* d_x);");
  EXPECT_EQ(printFunction(g, p),
            "double ssq_grad(const double* x, int n, double* d_x) {\n"
            "  double acc = 0.0;\n"
            "  for (long i = 0; i < n; ++i) {\n"
            "    const double t = x[i];\n"
            "    acc = acc + t * t;\n"
            "  }\n"
            "  for (long j = n - 1; j >= 0; --j) {\n"
            "    d_x[j] += 2.0 * x[j] * 1.0;\n"
            "  }\n"
            "  return acc;\n"
            "}\n");
  // std::vector: the adjoint is a vector, the bound its size
  Expr x = av("x");
  Function gv = genA(fn(p, "ssqv"), "$grad", gradSsqBody(Size::make(x), Size::make(x)));
  std::string s = printFunction(gv, p);
  EXPECT_PRED2(contains, s, "double ssqv_grad(const std::vector<double>& x, std::vector<double>& d_x) {\n");
  EXPECT_PRED2(contains, s, "  for (long i = 0; i < static_cast<long>(x.size()); ++i) {\n");
  EXPECT_PRED2(contains, s, "  for (long j = static_cast<long>(x.size()) - 1; j >= 0; --j) {\n");
}

// The front end's description of the C++ types survives the JSON form; an
// older JSON form without it prints from the IR types.
TEST(PrinterArrays, CxxTypesThroughJson) {
  Program p = arrayProgram();
  Function g = genA(fn(p, "ssqv"), "$grad", gradSsqBody(Size::make(av("x")), Size::make(av("x"))));
  std::string direct = printFunction(g, p);
  Program back;
  for (auto &f : p.functions) back.functions.push_back(functionFromJson(toJson(f)));
  EXPECT_EQ(printFunction(g, back), direct);
  const CxxType &x = fn(back, "ssqv").cxx.params.at(0);
  EXPECT_EQ(x.kind, CxxType::Kind::Vector);
  EXPECT_TRUE(x.isConst && x.isReference);
  EXPECT_EQ(x.adjointBefore, "std::vector<double>& ");
  ASSERT_EQ(x.element.size(), 1u);
  EXPECT_EQ(x.element[0].valueSpelling, "double");

  Program old;
  for (auto &f : p.functions) {
    nlohmann::json j = toJson(f);
    j["cxx"].erase("params");
    j["cxx"].erase("result");
    old.functions.push_back(functionFromJson(j));
  }
  Function gs = genA(fn(old, "ssq"), "$grad", gradSsqBody(iv("n"), iv("n")));
  EXPECT_EQ(printPrototype(gs, old), "double ssq_grad(const double* x, long n, double* d_x);");
}

TEST(PrinterArrays, PullbackWithArrayBuffer) {
  Program p = arrayProgram();
  EXPECT_EQ(printFunction(genA(fn(p, "wsum"), "$pullback", wsumPullbackBody()), p),
            "inline void wsum_pullback(const double* w, double c, int n, double d_return, double* d_w, double* d_c) {\n"
            "  double a = 0.0;\n"
            "  for (long i = 0; i < n; ++i) {\n"
            "    d_w[i] += c * d_return;\n"
            "    a = a + w[i] * d_return;\n"
            "  }\n"
            "  *d_c += a;\n"
            "}\n");
  // the caller's vector goes to the helper's pointer parameters as data()
  EXPECT_EQ(printFunction(genA(fn(p, "outer"), "$grad", gradOuterBody()), p),
            "double outer_grad(const std::vector<double>& x, double k, int n, std::vector<double>& d_x, double* d_k) {\n"
            "  const double y = ::wsum(x.data(), k, n);\n"
            "  double pb_c = 0.0;\n"
            "  wsum_pullback(x.data(), k, n, k, d_x.data(), &pb_c);\n"
            "  *d_k += y + pb_c;\n"
            "  return k * y;\n"
            "}\n");
  // a pullback into a buffer is an effect even when nothing reads its result
  Expr args3[] = {av("x"), v("k"), iv("n")};
  Function g = genA(fn(p, "outer"), "$grad",
                    let("pb", Pullback::make("wsum", {args3[0], args3[1], args3[2]}, c(1), Type::tuple({Type::unit(), F()}), {av("d_x")}),
                        tup({c(0), unit(), c(0)})));
  EXPECT_PRED2(contains, printFunction(g, p), "  wsum_pullback(x.data(), k, n, 1.0, d_x.data(), &pb_c);\n");
}

TEST(PrinterArrays, WhileLoop) {
  Program p = arrayProgram();
  EXPECT_EQ(printFunction(genA(fn(p, "dbl"), "$grad", gradDblBody(false)), p),
            "double dbl_grad(double x, double* d_x) {\n"
            "  double y = x;\n"
            "  long k = 0;\n"
            "  while (y < 100.0) {\n"
            "    y = y * 2.0;\n"
            "    k = k + 1;\n"
            "  }\n"
            "  double d = 1.0;\n"
            "  for (long i = 0; i < k; ++i) {\n"
            "    d = d * 2.0;\n"
            "  }\n"
            "  *d_x += d;\n"
            "  return y;\n"
            "}\n");
  std::string s = printFunction(genA(fn(p, "dbl2"), "$grad", gradDblBody(true)), p);
  EXPECT_PRED2(contains, s,
               "  while (true) {\n"
               "    const double q = y * y;\n"
               "    if (!(q < 10000.0)) break;\n"
               "    y = y * 2.0;\n"
               "    k = k + 1;\n"
               "  }\n");
}

TEST(PrinterArrays, TupleStateFold) {
  Program p = arrayProgram();
  EXPECT_EQ(printFunction(genA(fn(p, "horner"), "$grad", gradHornerBody()), p),
            "double horner_grad(const double* c, double x, int n, double* d_x) {\n"
            "  double p = 0.0;\n"
            "  double dp = 0.0;\n"
            "  for (long i = n - 1; i >= 0; --i) {\n"
            "    dp = dp * x + p;\n"
            "    p = p * x + c[i];\n"
            "  }\n"
            "  *d_x += dp;\n"
            "  return p;\n"
            "}\n");
  std::string s = printFunction(genA(fn(p, "fib"), "$grad", gradFibBody()), p);
  EXPECT_PRED2(contains, s,
               "  for (long i = 0; i < n; ++i) {\n"
               "    const double b_next = a + b;\n"
               "    const double db_next = da + db;\n"
               "    a = b;\n"
               "    b = b_next;\n"
               "    da = db;\n"
               "    db = db_next;\n"
               "  }\n");
  // a state component nobody reads is not computed
  TypeP pt = Type::tuple({F(), F()});
  Expr r = fold(ci(0), iv("n"), tup({c(0), c(1)}), "i", "st",
                tup({add(Proj::make(v("st", pt), 0), v("x")), mul(Proj::make(v("st", pt), 1), v("x"))}));
  std::string s2 = printFunction(genA(fn(p, "fib"), "$grad", let("r", r, tup({Proj::make(v("r", pt), 0), c(1)}))), p);
  EXPECT_PRED2(contains, s2, "  double st_0 = 0.0;\n  for (long i = 0; i < n; ++i) {\n    st_0 = st_0 + x;\n  }\n");
  EXPECT_PRED2(lacks, s2, "st_1");
}

TEST(PrinterArrays, TapeWrittenThenRead) {
  Program p = arrayProgram();
  EXPECT_EQ(printFunction(genA(fn(p, "prod"), "$grad", gradProdBody()), p),
            "double prod_grad(const std::vector<double>& x, std::vector<double>& d_x) {\n"
            "  std::vector<double> tape(x.size());\n"
            "  double acc = 1.0;\n"
            "  for (long i = 0; i < static_cast<long>(x.size()); ++i) {\n"
            "    tape[i] = acc;\n"
            "    acc = acc * x[i];\n"
            "  }\n"
            "  double suf = 1.0;\n"
            "  for (long j = static_cast<long>(x.size()) - 1; j >= 0; --j) {\n"
            "    d_x[j] += tape[j] * suf;\n"
            "    suf = suf * x[j];\n"
            "  }\n"
            "  return acc;\n"
            "}\n");
}

TEST(PrinterArrays, VoidFunctionsWithOutputs) {
  Program p = arrayProgram();
  EXPECT_EQ(printFunction(genA(fn(p, "scale"), "$grad", gradScaleBody()), p),
            "void scale_grad(const double* x, double* out, double k, int n, double* d_x, double* d_out, double* d_k) {\n"
            "  for (long i = 0; i < n; ++i) {\n"
            "    out[i] = k * x[i];\n"
            "  }\n"
            "  double a = 0.0;\n"
            "  for (long j = n - 1; j >= 0; --j) {\n"
            "    const double g = d_out[j];\n"
            "    d_x[j] += k * g;\n"
            "    a = a + x[j] * g;\n"
            "  }\n"
            "  *d_k += a;\n"
            "}\n");
  EXPECT_EQ(printFunction(genA(fn(p, "sq_into"), "$pullback", sqIntoPullbackBody()), p),
            "inline void sq_into_pullback(const double* x, [[maybe_unused]] double* out, int n, double* d_x, double* d_out) {\n"
            "  for (long i = 0; i < n; ++i) {\n"
            "    d_x[i] += 2.0 * x[i] * d_out[i];\n"
            "  }\n"
            "}\n");
  EXPECT_EQ(printFunction(genA(fn(p, "sq_all"), "$grad", gradSqAllBody()), p),
            "void sq_all_grad(const double* x, double* out, int n, double* d_x, double* d_out) {\n"
            "  ::sq_into(x, out, n);\n"
            "  sq_into_pullback(x, out, n, d_x, d_out);\n"
            "}\n");
}

TEST(PrinterArrays, NestedLoopsUnsignedAndCArrays) {
  Program p = arrayProgram();
  std::string s = printFunction(genA(fn(p, "pairs"), "$grad", gradPairsBody()), p);
  EXPECT_EQ(s,
            "double pairs_grad(const double* x, std::size_t n, double* d_x) {\n"
            "  double a = 0.0;\n"
            "  for (long i = 0; i < static_cast<long>(n); ++i) {\n"
            "    double b = 0.0;\n"
            "    for (long j = 0; j < static_cast<long>(n); ++j) {\n"
            "      b = b + x[i] * x[j];\n"
            "    }\n"
            "    a = a + b;\n"
            "  }\n"
            "  for (long i2 = static_cast<long>(n) - 1; i2 >= 0; --i2) {\n"
            "    for (long j2 = 0; j2 < static_cast<long>(n); ++j2) {\n"
            "      d_x[i2] += x[j2];\n"
            "      d_x[j2] += x[i2];\n"
            "    }\n"
            "  }\n"
            "  return a;\n"
            "}\n");
  std::string s3 = printFunction(genA(fn(p, "sum3"), "$grad", gradSum3Body()), p);
  EXPECT_PRED2(contains, s3, "double sum3_grad(const double (&x)[3], double* d_x) {\n");
  EXPECT_PRED2(contains, s3, "  for (long i = 0; i < 3; ++i) {\n");
  EXPECT_PRED2(contains, s3, "    d_x[j] += 1.0;\n");
  // a pointer does not know its size
  Function bad = genA(fn(p, "ssq"), "$grad", gradSsqBody(Size::make(av("x")), iv("n")));
  EXPECT_THROW(printFunction(bad, p), IRError);
}

TEST(PrinterArrays, EffectsAreKeptAndOrdered) {
  Program p = arrayProgram();
  Expr x = av("x"), dx = av("d_x");
  // one shared read of d_x[0] before and after a store to it: read twice
  Expr r = at(dx, ci(0));
  Expr cond = Prim::make(Op::Lt, {at(x, ci(0)), c(0)});
  Expr body =
      let("t1", add(r, c(1)),
          effect(setAt(dx, ci(0), c(5)),
                 let("t2", add(r, c(1)),
                     // stores under ifs whose value is the unit
                     effect(If::make(cond, effect(addTo(dx, ci(1), v("t1")), unit()), unit()),
                            effect(If::make(cond, unit(), effect(addTo(dx, ci(2), neg(v("t2"))), unit())),
                                   // a store of += 0 does nothing; a loop with a dead state is dropped
                                   effect(addTo(dx, ci(3), c(0)),
                                          let("dead", fold(ci(0), iv("n"), c(0), "i", "z", add(v("z"), at(x, iv("i")))),
                                              tup({c(0), unit()}))))))));
  std::string s = printFunction(genA(fn(p, "ssq"), "$grad", body), p);
  EXPECT_EQ(s,
            "double ssq_grad(const double* x, [[maybe_unused]] int n, double* d_x) {\n"
            "  const double tmp = d_x[0];\n"
            "  const double t1 = tmp + 1.0;\n"
            "  d_x[0] = 5.0;\n"
            "  const double tmp_1 = d_x[0];\n"
            "  const double t2 = tmp_1 + 1.0;\n"
            "  const bool cond = x[0] < 0.0;\n"
            "  if (cond) {\n"
            "    d_x[1] += t1;\n"
            "  }\n"
            "  if (!cond) {\n"
            "    d_x[2] -= t2;\n"
            "  }\n"
            "  return 0.0;\n"
            "}\n");
  // a read of x shared before, in and after a loop that writes d_x only
  Expr rx = at(x, ci(0));
  Expr loop = fold(ci(0), iv("n"), unit(), "i", "u", effect(addTo(dx, iv("i"), mul(rx, c(2))), unit()));
  std::string s2 =
      printFunction(genA(fn(p, "ssq"), "$grad", let("a", add(rx, c(1)), let("_l", loop, tup({add(rx, v("a")), unit()})))), p);
  EXPECT_EQ(s2,
            "double ssq_grad(const double* x, int n, double* d_x) {\n"
            "  const double tmp = x[0];\n"
            "  const double a = tmp + 1.0;\n"
            "  for (long i = 0; i < n; ++i) {\n"
            "    d_x[i] += tmp * 2.0;\n"
            "  }\n"
            "  return tmp + a;\n"
            "}\n");
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

// Compiles `code` with every host compiler (-Wall -Wextra -Werror) and
// checks what it prints.
void compileAndRun(const std::string &code, const std::string &expected) {
  char dir[] = "/tmp/unfad_printer_XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  std::string src = std::string(dir) + "/gen.cpp";
  std::ofstream(src) << code;
  int compilers = 0;
  for (std::string cxx : {"g++", "clang++"}) {
    if (std::system(("command -v " + cxx + " >/dev/null 2>&1").c_str()) != 0) continue;
    ++compilers;
    std::string exe = std::string(dir) + "/gen_" + cxx.substr(0, 3);
    std::string log = run(cxx + " -std=c++17 -Wall -Wextra -Werror -o " + exe + " " + src + " 2>&1");
    EXPECT_EQ(log, "") << cxx << " failed on:\n" << code;
    if (log.empty()) {
      EXPECT_EQ(run(exe), expected) << cxx << " on:\n" << code;
    }
  }
  EXPECT_GT(compilers, 0);
  std::system(("rm -rf " + std::string(dir)).c_str());
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

TEST(PrinterArrays, GeneratedCodeCompilesAndIsRight) {
  Program p = arrayProgram();
  Expr x = av("x");
  std::string code = "#include <cmath>\n#include <cstddef>\n#include <cstdio>\n#include <vector>\n"
                     "double wsum(const double* w, double c, int n) {\n"
                     "  double s = 0;\n  for (int i = 0; i < n; ++i) s += w[i] * c;\n  return s;\n}\n"
                     "void sq_into(const double* x, double* out, int n) {\n"
                     "  for (int i = 0; i < n; ++i) out[i] = x[i] * x[i];\n}\n";
  code += printFunction(genA(fn(p, "ssq"), "$grad", gradSsqBody(iv("n"), iv("n"))), p);
  code += printFunction(genA(fn(p, "ssqv"), "$grad", gradSsqBody(Size::make(x), Size::make(x))), p);
  code += printFunction(genA(fn(p, "wsum"), "$pullback", wsumPullbackBody()), p);
  code += printFunction(genA(fn(p, "outer"), "$grad", gradOuterBody()), p);
  code += printFunction(genA(fn(p, "dbl"), "$grad", gradDblBody(false)), p);
  code += printFunction(genA(fn(p, "dbl2"), "$grad", gradDblBody(true)), p);
  code += printFunction(genA(fn(p, "horner"), "$grad", gradHornerBody()), p);
  code += printFunction(genA(fn(p, "fib"), "$grad", gradFibBody()), p);
  code += printFunction(genA(fn(p, "prod"), "$grad", gradProdBody()), p);
  code += printFunction(genA(fn(p, "scale"), "$grad", gradScaleBody()), p);
  code += printFunction(genA(fn(p, "sq_into"), "$pullback", sqIntoPullbackBody()), p);
  code += printFunction(genA(fn(p, "sq_all"), "$grad", gradSqAllBody()), p);
  code += printFunction(genA(fn(p, "pairs"), "$grad", gradPairsBody()), p);
  code += printFunction(genA(fn(p, "sum3"), "$grad", gradSum3Body()), p);
  code += R"(
int main() {
  double x[3] = {1, 2, 3}, dx[3] = {0, 0, 0};
  double s = ssq_grad(x, 3, dx);
  std::printf("%g %g %g %g|", s, dx[0], dx[1], dx[2]);
  std::vector<double> xv{1, 2, 3}, dxv(3);
  double sv = ssqv_grad(xv, dxv);
  std::printf("%g %g %g %g|", sv, dxv[0], dxv[1], dxv[2]);
  std::vector<double> dxo(3);
  double dk = 0;
  double o = outer_grad(xv, 0.5, 3, dxo, &dk);
  std::printf("%g %g %g %g %g|", o, dxo[0], dxo[1], dxo[2], dk);
  double dd = 0, dd2 = 0;
  double y = dbl_grad(3, &dd), y2 = dbl2_grad(3, &dd2);
  std::printf("%g %g|%g %g|", y, dd, y2, dd2);
  double c[3] = {1, 2, 3}, dh = 0;
  double h = horner_grad(c, 2, 3, &dh);
  double df = 0;
  double fb = fib_grad(0.5, 3, &df);
  std::printf("%g %g|%g %g|", h, dh, fb, df);
  std::vector<double> px{2, 3, 4}, dpx(3);
  double pr = prod_grad(px, dpx);
  std::printf("%g %g %g %g|", pr, dpx[0], dpx[1], dpx[2]);
  double out[3], dout[3] = {1, 1, 1}, dxs[3] = {0, 0, 0}, dks = 0;
  scale_grad(x, out, 2, 3, dxs, dout, &dks);
  std::printf("%g %g %g %g %g %g %g|", out[0], out[1], out[2], dxs[0], dxs[1], dxs[2], dks);
  double out2[3], dout2[3] = {1, 0.5, 2}, dxq[3] = {0, 0, 0};
  sq_all_grad(x, out2, 3, dxq, dout2);
  std::printf("%g %g %g %g %g %g|", out2[0], out2[1], out2[2], dxq[0], dxq[1], dxq[2]);
  double dpp[3] = {0, 0, 0};
  double pp = pairs_grad(x, std::size_t(3), dpp);
  double d3[3] = {0, 0, 0};
  double s3 = sum3_grad(x, d3);
  std::printf("%g %g %g %g|%g %g %g %g\n", pp, dpp[0], dpp[1], dpp[2], s3, d3[0], d3[1], d3[2]);
}
)";
  // d/dx sum x^2 = 2x; outer = k^2 sum x -> (k^2, 2k sum x); dbl: 3 doubles
  // 6 times -> (192, 2^6); horner 1 + 2x + 3x^2 at 2 -> (17, 14); fib from
  // (1, 0.5) 3 steps -> (3.5, 3); prod -> products of the others; scale ->
  // (k x, k d_out, x . d_out); sq_all -> (x^2, 2 x d_out); (sum x)^2 ->
  // 2 sum x; sum3 -> ones.
  compileAndRun(code, "14 2 4 6|14 2 4 6|1.5 0.25 0.25 0.25 6|192 64|192 64|17 14|3.5 3|24 12 8 6|"
                      "2 4 6 2 2 2 6|1 4 9 2 2 12|36 12 12 12|6 1 1 1\n");
}

} // namespace
