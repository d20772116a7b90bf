// Front end tests: lower in-memory C++ with the real Clang, then check the IR
// (printed form, C++ info, diagnostics) and that the IR computes what the
// same C++, compiled into this test, computes.
#include "unfad/frontend/frontend.h"
#include "unfad/ir/ir.h"

#include <clang/AST/ASTContext.h>
#include <clang/Basic/Diagnostic.h>
#include <clang/Frontend/ASTUnit.h>
#include <clang/Tooling/Tooling.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#ifndef UNFAD_SOURCE_DIR
#define UNFAD_SOURCE_DIR "."
#endif

namespace {

using namespace unfad;

struct Collect : clang::DiagnosticConsumer {
  std::vector<std::string> messages;
  void HandleDiagnostic(clang::DiagnosticsEngine::Level level, const clang::Diagnostic &d) override {
    clang::DiagnosticConsumer::HandleDiagnostic(level, d);
    llvm::SmallString<128> s;
    d.FormatDiagnostic(s);
    std::string where;
    if (d.hasSourceManager() && d.getLocation().isValid()) {
      auto p = d.getSourceManager().getPresumedLoc(d.getLocation());
      where = std::to_string(p.getLine()) + ":" + std::to_string(p.getColumn()) + ": ";
    }
    messages.push_back(where + std::string(s.str()));
  }
};

struct Lowered {
  bool ok = false;
  ir::Program program;
  std::vector<frontend::MarkedFunction> marked;
  std::vector<std::string> diags;
  std::unique_ptr<clang::ASTUnit> unit;
};

const char *kPrelude = "#include <cmath>\n#include <algorithm>\n#include <unfad/unfad.h>\n";

std::unique_ptr<Lowered> lower(const std::string &code) {
  auto r = std::make_unique<Lowered>();
  Collect collect;
  std::vector<std::string> args = {"-std=c++17", "-I" UNFAD_SOURCE_DIR "/include",
                                   "-resource-dir=/usr/lib/llvm-19/lib/clang/19"};
  r->unit = clang::tooling::buildASTFromCodeWithArgs(
      kPrelude + code, args, "input.cc", "unfad-test", std::make_shared<clang::PCHContainerOperations>(),
      clang::tooling::getClangStripDependencyFileAdjuster(), clang::tooling::FileContentMappings(), &collect);
  if (!r->unit) return r;
  auto &diags = r->unit->getDiagnostics();
  diags.setClient(&collect, /*ShouldOwnClient=*/false);
  r->ok = frontend::lowerMarkedFunctions(r->unit->getASTContext(), diags, r->program, &r->marked);
  r->diags = collect.messages;
  diags.setClient(new clang::IgnoringDiagConsumer(), true);
  return r;
}

std::string joined(const std::vector<std::string> &v) {
  std::string s;
  for (auto &x : v) s += x + "\n";
  return s;
}

double evalF(const ir::Program &p, std::vector<double> args, const std::string &fn = "f") {
  std::vector<ir::Value> vs;
  for (double a : args) vs.push_back(ir::Value::of(a));
  return ir::evaluate(p, fn, vs).scalar;
}

// Each case is compiled here as C++ and handed to the front end as text.
#define CASE(name, ...)                                                                            \
  namespace name {                                                                                 \
  __VA_ARGS__                                                                                      \
  }                                                                                                \
  static const char *name##_src = #__VA_ARGS__;

} // namespace

#ifdef UNFAD_GRADIENT
#undef UNFAD_GRADIENT
#endif
#define UNFAD_GRADIENT

CASE(branches, UNFAD_GRADIENT double f(double x, double y) {
  double r = x;
  if (x > y) {
    r = r * y;
    y = y + 1;
  } else if (x < -1)
    r -= 2;
  else {
    r += x * x;
  }
  if (r > 0.5) r = r / 2;
  return r * y;
})

CASE(early_return, UNFAD_GRADIENT double f(double x, int n) {
  if (n > 3) return x * n;
  double y = x;
  if (y > 1) {
    if (n == 0) return y;
    y *= 2;
  }
  y += 1;
  return y;
})

CASE(compound, UNFAD_GRADIENT double f(double x, int n) {
  int k = n;
  k++;
  --k;
  k += 2;
  double a = x;
  a += k;
  a -= 1.5;
  a *= x;
  a /= 3;
  ++a;
  a--;
  float g = float(a);
  g *= 2;
  return a + g + k / 2 + k % 3;
})

CASE(structs, struct V { double x, y; };
     static V add(const V &a, V b) { return {a.x + b.x, a.y * b.y}; }
     UNFAD_GRADIENT double f(double x, double y) {
       V v{x, y};
       V w = {y, 2};
       v.x += w.y;
       V s = add(v, w);
       s.y = s.y - x;
       V t;
       t = s;
       return t.x * s.y;
     })

CASE(recursion, static double power(double x, int n) {
  if (n == 0) return 1.0;
  return x * power(x, n - 1);
} UNFAD_GRADIENT double f(double x, int n) { return power(x, n) + power(2.0 * x, 1); })

CASE(logic, UNFAD_GRADIENT double f(double x, double y, int n) {
  bool b = (x > 0 && !(y < 0)) || n == 3;
  return b ? x * y : x - y;
})

CASE(math, UNFAD_GRADIENT double f(double x, double y) {
  return std::sin(x) + cos(y) + std::pow(x, 2) + std::fmax(x, y) + std::abs(y) + std::max(x, y) + std::min(x, y) +
         std::exp(x / 4) + std::log1p(x * x) + std::hypot(x, y) + std::atan2(y, x) + std::sqrt(x * x + 1);
})

CASE(templ, namespace geo {
  template <class T> T sq(T v) { return v * v; }
  inline double twice(double v) { return 2 * v; }
  } // namespace geo
  constexpr double kScale = 3.0;
  UNFAD_GRADIENT double f(double x) { return geo::sq(x) + geo::twice(x) * kScale + geo::sq<float>(float(x)); })

TEST(Frontend, SimpleChainPrints) {
  auto r = lower("UNFAD_GRADIENT double f(double x1, double x2, double x3) {\n"
                 "  double w1 = x1 * x2; double w2 = w1 * x1; return w2; }\n");
  ASSERT_TRUE(r->ok) << joined(r->diags);
  ASSERT_EQ(r->program.functions.size(), 1u);
  const ir::Function &f = r->program.functions[0];
  EXPECT_EQ(f.name, "f");
  EXPECT_TRUE(f.marked);
  EXPECT_EQ(ir::print(f.body), "let w1: f64 = mul(x1, x2) in\nlet w2: f64 = mul(w1, x1) in\nw2");
  ASSERT_EQ(r->marked.size(), 1u);
  EXPECT_EQ(r->marked[0].cxxName, "f");
  EXPECT_TRUE(r->marked[0].bodyEnd.isValid());
}

TEST(Frontend, SsaNames) {
  auto r = lower(std::string(compound_src));
  ASSERT_TRUE(r->ok) << joined(r->diags);
  std::string s = ir::print(r->program);
  EXPECT_NE(s.find("let a: f64"), std::string::npos) << s;
  EXPECT_NE(s.find("let a_1: f64"), std::string::npos) << s;
  EXPECT_NE(s.find("let k_1: i64"), std::string::npos) << s;
}

TEST(Frontend, Numerics) {
  struct Check {
    const char *name;
    const char *src;
    std::vector<std::vector<double>> points;
    double (*eval)(const std::vector<double> &);
  };
  std::vector<Check> checks = {
      {"branches", branches_src, {{0.3, 0.1}, {0.1, 0.3}, {-2, 0.5}, {2, 1}, {-0.5, 0.2}},
       [](const std::vector<double> &a) { return branches::f(a[0], a[1]); }},
      {"early_return", early_return_src, {{0.5, 4}, {2, 0}, {2, 1}, {0.5, 1}, {-1, 2}},
       [](const std::vector<double> &a) { return early_return::f(a[0], int(a[1])); }},
      {"compound", compound_src, {{0.5, 4}, {2, 0}, {-2, 7}},
       [](const std::vector<double> &a) { return compound::f(a[0], int(a[1])); }},
      {"structs", structs_src, {{0.5, 4}, {2, -1}},
       [](const std::vector<double> &a) { return structs::f(a[0], a[1]); }},
      {"recursion", recursion_src, {{0.5, 4}, {1.5, 0}, {-1.2, 3}},
       [](const std::vector<double> &a) { return recursion::f(a[0], int(a[1])); }},
      {"logic", logic_src, {{0.5, 4, 0}, {-1, 2, 3}, {1, -2, 1}, {-1, -1, 0}},
       [](const std::vector<double> &a) { return logic::f(a[0], a[1], int(a[2])); }},
      {"math", math_src, {{0.5, 4}, {1.5, -0.3}, {2.5, 2.5}},
       [](const std::vector<double> &a) { return math::f(a[0], a[1]); }},
      {"templ", templ_src, {{0.5}, {-1.5}},
       [](const std::vector<double> &a) { return templ::f(a[0]); }},
  };
  for (auto &c : checks) {
    SCOPED_TRACE(c.name);
    auto r = lower(c.src);
    ASSERT_TRUE(r->ok) << joined(r->diags);
    for (auto &p : c.points) {
      double want = c.eval(p), got = evalF(r->program, p);
      EXPECT_NEAR(got, want, 1e-5 * (1 + std::fabs(want))) << ir::print(r->program);
    }
  }
}

TEST(Frontend, HelpersAndCxxInfo) {
  auto r = lower("namespace geo {\n"
                 "struct Vec3 { double x, y, z; };\n"
                 "inline double dot(const Vec3 &a, const Vec3 &b) { return a.x * b.x + a.y * b.y + a.z * b.z; }\n"
                 "UNFAD_GRADIENT double norm2(const Vec3 &v, int n) { return dot(v, v) * n; }\n"
                 "}\n");
  ASSERT_TRUE(r->ok) << joined(r->diags);
  ASSERT_EQ(r->program.functions.size(), 2u);
  const ir::Function &dot = r->program.functions[0], &norm = r->program.functions[1];
  EXPECT_EQ(dot.name, "geo::dot");
  EXPECT_FALSE(dot.marked);
  EXPECT_EQ(dot.cxx.qualifiedName, "::geo::dot");
  EXPECT_EQ(dot.cxx.enclosingNamespace, "geo");
  EXPECT_TRUE(dot.cxx.isInline);
  EXPECT_EQ(dot.cxx.paramTypes.at(0), "const geo::Vec3 &");
  EXPECT_TRUE(dot.params[0].active);
  EXPECT_EQ(norm.name, "geo::norm2");
  EXPECT_TRUE(norm.marked);
  EXPECT_EQ(norm.cxx.returnType, "double");
  EXPECT_EQ(norm.cxx.paramTypes.at(0), "const Vec3 &");
  EXPECT_TRUE(norm.params[0].active);
  EXPECT_FALSE(norm.params[1].active);
  EXPECT_EQ(ir::str(norm.params[0].type), "geo::Vec3{x: f64, y: f64, z: f64}");
}

TEST(Frontend, Wrt) {
  auto r = lower("UNFAD_GRADIENT_WRT(y) double f(double x, double y) { return x * y; }\n");
  ASSERT_TRUE(r->ok) << joined(r->diags);
  EXPECT_FALSE(r->program.functions[0].params[0].active);
  EXPECT_TRUE(r->program.functions[0].params[1].active);
}

TEST(Frontend, Diagnostics) {
  struct D {
    const char *code;
    const char *message;
  };
  std::vector<D> ds = {
      {"UNFAD_GRADIENT double f(double x) {\n  double s = 0;\n  for (int i = 0; i < 2; ++i) s += x;\n  return s; }",
       "6:3: cannot differentiate 'f': loops are not supported yet ('for' statement)"},
      {"double g(double);\nUNFAD_GRADIENT double f(double x) {\n  return g(x); }",
       "6:10: cannot differentiate 'f': call to 'g' whose body is not visible"},
      {"double counter;\nUNFAD_GRADIENT double f(double x) {\n  counter = x; return x; }",
       "6:3: cannot differentiate 'f': writes to global variable 'counter'"},
      {"UNFAD_GRADIENT double f(int n) { return n; }", "cannot differentiate 'f': no active (floating-point) parameter"},
      {"UNFAD_GRADIENT_WRT(z) double f(double x) { return x; }",
       "cannot differentiate 'f': 'UNFAD_GRADIENT_WRT' names 'z', which is not a parameter"},
  };
  for (auto &d : ds) {
    auto r = lower(d.code);
    EXPECT_FALSE(r->ok) << d.code;
    std::string all = joined(r->diags);
    EXPECT_NE(all.find(d.message), std::string::npos) << "expected: " << d.message << "\ngot:\n" << all;
  }
}
