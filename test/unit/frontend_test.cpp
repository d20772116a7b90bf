// Front end tests: lower in-memory C++ with the real Clang, then check the IR
// (printed form, C++ info, diagnostics) and that the IR computes what the
// same C++, compiled into this test, computes.
#include "unfad/frontend/frontend.h"
#include "unfad/ir/ir.h"
#include "unfad/ir/mutator.h"

#include <clang/AST/ASTContext.h>
#include <clang/Basic/Diagnostic.h>
#include <clang/Frontend/ASTUnit.h>
#include <clang/Tooling/Tooling.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <stdexcept>
#include <map>
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
const char *kArrayPrelude = "#include <array>\n#include <vector>\n";

std::unique_ptr<Lowered> lower(const std::string &code, bool arrays = false) {
  auto r = std::make_unique<Lowered>();
  Collect collect;
  std::vector<std::string> args = {"-std=c++17", "-I" UNFAD_SOURCE_DIR "/include",
                                   "-resource-dir=/usr/lib/llvm-19/lib/clang/19"};
  r->unit = clang::tooling::buildASTFromCodeWithArgs(
      kPrelude + std::string(arrays ? kArrayPrelude : "") + code, args, "input.cc", "unfad-test", std::make_shared<clang::PCHContainerOperations>(),
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
  // a helper's types are spelled from the global namespace (its pullback may sit elsewhere)
  EXPECT_EQ(dot.cxx.params.at(0).kind, ir::CxxType::Kind::Struct);
  EXPECT_TRUE(dot.cxx.params.at(0).isConst && dot.cxx.params.at(0).isReference);
  EXPECT_EQ(dot.cxx.params.at(0).valueSpelling, "geo::Vec3");
  EXPECT_TRUE(dot.params[0].active);
  EXPECT_EQ(norm.name, "geo::norm2");
  EXPECT_TRUE(norm.marked);
  EXPECT_EQ(norm.cxx.result.kind, ir::CxxType::Kind::Scalar);
  EXPECT_EQ(norm.cxx.result.valueSpelling, "double");
  EXPECT_EQ(norm.cxx.params.at(0).valueSpelling, "Vec3"); // a marked function's, as written
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

// The math functions are found by the names of the operators: each, as
// `std::name`, `namef` and `__builtin_name`, is one Prim of its operator.
TEST(Frontend, MathFunctionNames) {
  std::string body;
  std::vector<ir::Op> ops;
  for (int k = int(ir::Op::Sin); k <= int(ir::Op::Trunc); ++k) {
    ir::Op op = ir::Op(k);
    std::string name = ir::opName(op), args = ir::opArity(op) == 2 ? "(x, y)" : "(x)";
    body += " + std::" + name + args + " + " + name + "f" + args + " + __builtin_" + name + args;
    ops.push_back(op);
  }
  auto r = lower("UNFAD_GRADIENT double f(double x, double y) { return 0.0" + body + "; }\n");
  ASSERT_TRUE(r->ok) << joined(r->diags);
  struct Count : ir::Visitor {
    std::map<ir::Op, int> seen;
    void visit(const ir::Prim *p) override {
      ++seen[p->op];
      ir::Visitor::visit(p);
    }
  } count;
  count.visitExpr(r->program.functions.at(0).body);
  for (ir::Op op : ops) EXPECT_EQ(count.seen[op], 3) << ir::opName(op);
}

// A helper given an array that is not differentiated (left out of
// UNFAD_GRADIENT_WRT) is lowered with that parameter passive: its pullback
// then needs no adjoint for it (a pointer's length is not known to make one).
TEST(Frontend, PassiveArrayArgument) {
  auto r = lower("static double weighted(const double *x, const double *w, int n) {\n"
                 "  double s = 0.0;\n"
                 "  for (int i = 0; i < n; ++i) s += w[i] * x[i];\n"
                 "  return s;\n"
                 "}\n"
                 "UNFAD_GRADIENT_WRT(x) double f(const double *x, const double *w, int n) { return weighted(x, w, n); }\n"
                 "UNFAD_GRADIENT double g(const double *x, const double *w, int n) { return weighted(x, w, n); }\n");
  ASSERT_TRUE(r->ok) << joined(r->diags);
  const ir::Function *passive = nullptr, *plain = nullptr;
  for (const ir::Function &fn : r->program.functions)
    if (fn.cxx.name == "weighted") (fn.params[1].active ? plain : passive) = &fn;
  ASSERT_TRUE(passive && plain) << ir::print(r->program);
  EXPECT_TRUE(passive->params[0].active);
  EXPECT_NE(passive->name, plain->name);
  EXPECT_TRUE(plain->params[0].active);
}

TEST(Frontend, Diagnostics) {
  struct D {
    const char *code;
    const char *message;
  };
  std::vector<D> ds = {
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

// ================================================= arrays and loops ===

namespace {

ir::Value num(double d) { return ir::Value::of(d); }
ir::Value arr(const std::vector<double> &xs) { return ir::Value::arrayOf(xs); }

// Every binder of a function is distinct (the optimiser relies on it).
void expectUniqueBinders(const ir::Function &f) {
  std::vector<std::string> names;
  for (auto &p : f.params) names.push_back(p.name);
  std::function<void(const ir::Expr &)> go = [&](const ir::Expr &e) {
    if (auto l = e->as<ir::Let>()) names.push_back(l->name), go(l->value), go(l->body);
    else if (auto x = e->as<ir::Fold>())
      names.push_back(x->index), names.push_back(x->state), go(x->lo), go(x->hi), go(x->init), go(x->body);
    else if (auto w = e->as<ir::While>()) names.push_back(w->state), go(w->init), go(w->cond), go(w->body);
    else if (auto i = e->as<ir::If>()) go(i->cond), go(i->thenE), go(i->elseE);
  };
  go(f.body);
  std::sort(names.begin(), names.end());
  auto dup = std::adjacent_find(names.begin(), names.end());
  EXPECT_EQ(dup, names.end()) << "binder " << *dup << " repeated in\n" << ir::print(f);
}

// Lowers a case (with <vector> and <array>); UNFAD_DUMP_IR=1 prints the IR.
std::unique_ptr<Lowered> lowerArrays(const char *src) {
  auto r = lower(src, /*arrays=*/true);
  EXPECT_TRUE(r->ok) << joined(r->diags);
  if (getenv("UNFAD_DUMP_IR")) printf("%s\n", ir::print(r->program).c_str());
  for (auto &f : r->program.functions) expectUniqueBinders(f);
  return r;
}

const ir::Function &fn(const Lowered &r, const std::string &name = "f") {
  const ir::Function *f = r.program.find(name);
  if (!f) throw std::runtime_error("no function " + name);
  return *f;
}

#define EXPECT_CLOSE(got, want) EXPECT_NEAR((got), (want), 1e-9 * (1 + std::fabs(want)))

} // namespace

CASE(sumsq, UNFAD_GRADIENT double f(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) s += x[i] * x[i];
  return s;
})

CASE(horner, UNFAD_GRADIENT double f(const double c[], int n, double x) {
  double r = 0;
  for (int i = n - 1; i >= 0; i--) r = r * x + c[i];
  return r;
})

CASE(lsq, UNFAD_GRADIENT double f(const double *A, const double *x, const double *b, int m, int n) {
  double s = 0;
  for (int i = 0; i < m; ++i) {
    double r = -b[i];
    for (int j = 0; j < n; j += 1) r += A[i * n + j] * x[j];
    s += r * r;
  }
  return s;
})

CASE(vecs, UNFAD_GRADIENT double f(const std::vector<double> &x, const std::vector<double> &y,
                                   const std::array<double, 3> &w) {
  double d = 0;
  for (size_t i = 0; i < x.size(); ++i) d += x[i] * y.at(i);
  for (double v : y) d += v * w[1];
  for (const double &v : w) d -= v;
  return d * w.size() + x.front() * x.back() + (x.empty() ? 1.0 : 0.0);
})

CASE(ode, UNFAD_GRADIENT double f(double k, double y0, double T) {
  double t = 0, y = y0;
  const double h = 0.01;
  while (t < T) {
    y += h * (-k * y + std::sin(t));
    t += h;
  }
  return y;
})

CASE(breaks, UNFAD_GRADIENT double f(const double *x, int n, double limit) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    if (s * x[i] > limit) break;
    s += x[i] * x[i];
  }
  int j = 0;
  double p = 1;
  while (j < n) {
    p *= x[j];
    if (p > limit)
      break;
    else
      p += 0.5;
    j++;
  }
  return s + p + j;
})

CASE(conts, UNFAD_GRADIENT double f(const double *x, int n) {
  double s = 0;
  int used = 0;
  for (int i = 0; i < n; ++i) {
    if (x[i] < 0) continue;
    s += std::sqrt(x[i]);
    if (x[i] > 2) {
      s *= 1.5;
      continue;
    }
    used++;
  }
  return s + used;
})

CASE(softmax, UNFAD_GRADIENT double f(const std::vector<double> &z, int k) {
  size_t n = z.size();
  double m = z[0];
  for (size_t i = 1; i < n; ++i) m = std::max(m, z[i]);
  std::vector<double> e(n);
  for (size_t i = 0; i < n; ++i) e[i] = std::exp(z[i] - m);
  double sum = 0;
  for (size_t i = 0; i < n; ++i) sum += e[i];
  return -std::log(e[k] / sum);
})

CASE(helpers, static double dot(const double *a, const double *b, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) s += a[i] * b[i];
  return s;
} static void axpy(double a, const std::vector<double> &x, std::vector<double> &y) {
  for (size_t i = 0; i < x.size(); ++i) y[i] += a * x[i];
} UNFAD_GRADIENT double f(const std::vector<double> &x, double a) {
  std::vector<double> y(x.size(), 1.0);
  axpy(a, x, y);
  axpy(2.0, x, y);
  double t[3] = {a, 2 * a};
  return dot(x.data(), y.data(), int(x.size())) + dot(t, t, 3);
})

CASE(output, UNFAD_GRADIENT void f(const double *x, double *out, int n) {
  for (int i = 0; i < n; ++i) {
    out[i] = std::sin(x[i]) * x[0];
    if (i > 0) out[i] -= x[i - 1];
  }
  *out += x[1];
})

CASE(dowhile, UNFAD_GRADIENT double f(double x) {
  double s = x;
  int k = 0;
  do {
    s = s * 0.5 + 1;
    ++k;
    if (k == 3) continue;
    s += 0.25;
  } while (k < 5 && s > 0.1);
  return s + k;
})

CASE(locals, UNFAD_GRADIENT double f(const std::array<double, 4> &p, double x) {
  std::array<double, 3> a{};
  std::array<double, 2> b = {x, 2 * x};
  double c[4] = {1, x};
  std::vector<double> v{x, 3.0, x * x};
  std::vector<double> w(int(p.size()) - 2, x);
  std::vector<double> q = v;
  a[2] = p[3];
  double s = 0;
  for (int i = 0; i <= 2; ++i) s += a[i] + c[i] * v[i] + q[i];
  for (int i = 0; i < 4; i += 2) s += c[i] * p[i];
  for (int i = 3; i > 0; --i) s += p[i] * i;
  return s + b[0] * b[1] + w[1] + c[3];
})

TEST(FrontendArrays, SumOfSquares) {
  auto r = lowerArrays(sumsq_src);
  ASSERT_TRUE(r->ok);
  const ir::Function &f = fn(*r);
  EXPECT_EQ(ir::str(f.params[0].type), ir::str(ir::Type::array(ir::Type::f64())));
  EXPECT_TRUE(f.params[0].active);
  EXPECT_FALSE(f.params[0].written);
  EXPECT_FALSE(f.params[1].active);
  EXPECT_EQ(f.cxx.params.at(0).kind, ir::CxxType::Kind::Pointer);
  EXPECT_TRUE(f.cxx.params.at(0).isConst);
  ASSERT_EQ(f.cxx.params.at(0).element.size(), 1u);
  EXPECT_EQ(f.cxx.params.at(0).element[0].valueSpelling, "double");
  std::string ir = ir::print(f.body);
  EXPECT_NE(ir.find("fold i in [0, n)"), std::string::npos) << ir;
  std::vector<double> x = {0.5, -1.5, 2, 3};
  for (int n : {0, 1, 4})
    EXPECT_CLOSE(ir::evaluate(r->program, "f", {arr(x), num(n)}).scalar, sumsq::f(x.data(), n));
}

TEST(FrontendArrays, HornerDecreasing) {
  auto r = lowerArrays(horner_src);
  ASSERT_TRUE(r->ok);
  std::string ir = ir::print(fn(*r).body);
  EXPECT_NE(ir.find("reversed"), std::string::npos) << ir;
  std::vector<double> c = {1, -2, 0.5, 3};
  for (double x : {0.3, -1.2, 2.0})
    EXPECT_CLOSE(ir::evaluate(r->program, "f", {arr(c), num(4), num(x)}).scalar, horner::f(c.data(), 4, x));
}

TEST(FrontendArrays, NestedLeastSquares) {
  auto r = lowerArrays(lsq_src);
  ASSERT_TRUE(r->ok);
  std::vector<double> A = {1, 2, 3, 4, 5, 6}, x = {0.5, -1, 2}, b = {1, -1};
  EXPECT_CLOSE(ir::evaluate(r->program, "f", {arr(A), arr(x), arr(b), num(2), num(3)}).scalar,
               lsq::f(A.data(), x.data(), b.data(), 2, 3));
}

TEST(FrontendArrays, VectorsAndStdArrays) {
  auto r = lowerArrays(vecs_src);
  ASSERT_TRUE(r->ok);
  const ir::Function &f = fn(*r);
  EXPECT_EQ(f.cxx.params.at(0).kind, ir::CxxType::Kind::Vector);
  EXPECT_TRUE(f.cxx.params.at(0).isConst && f.cxx.params.at(0).isReference);
  EXPECT_EQ(f.cxx.params.at(0).valueSpelling, "std::vector<double>");
  EXPECT_TRUE(f.params[2].active);
  std::vector<double> x = {1, 2, 3}, y = {0.5, -0.25, 2};
  std::array<double, 3> w = {0.1, 0.2, 0.3};
  EXPECT_CLOSE(ir::evaluate(r->program, "f", {arr(x), arr(y), arr({w.begin(), w.end()})}).scalar, vecs::f(x, y, w));
}

TEST(FrontendArrays, WhileOde) {
  auto r = lowerArrays(ode_src);
  ASSERT_TRUE(r->ok);
  std::string ir = ir::print(fn(*r).body);
  EXPECT_NE(ir.find("while "), std::string::npos) << ir;
  EXPECT_CLOSE(ir::evaluate(r->program, "f", {num(0.7), num(1.5), num(1.0)}).scalar, ode::f(0.7, 1.5, 1.0));
}

TEST(FrontendArrays, BreakAndContinue) {
  auto r = lowerArrays(breaks_src);
  ASSERT_TRUE(r->ok);
  std::vector<double> x = {0.5, 1.5, -2, 3, 1, 2};
  for (double limit : {0.1, 1.0, 2.5, 100.0})
    EXPECT_CLOSE(ir::evaluate(r->program, "f", {arr(x), num(6), num(limit)}).scalar, breaks::f(x.data(), 6, limit));
  auto c = lowerArrays(conts_src);
  ASSERT_TRUE(c->ok);
  EXPECT_CLOSE(ir::evaluate(c->program, "f", {arr(x), num(6)}).scalar, conts::f(x.data(), 6));
}

TEST(FrontendArrays, SoftmaxThroughLocalBuffer) {
  auto r = lowerArrays(softmax_src);
  ASSERT_TRUE(r->ok);
  std::vector<double> z = {0.5, 2, -1, 1.25};
  for (int k : {0, 1, 3}) EXPECT_CLOSE(ir::evaluate(r->program, "f", {arr(z), num(k)}).scalar, softmax::f(z, k));
}

TEST(FrontendArrays, HelpersTakingArrays) {
  auto r = lowerArrays(helpers_src);
  ASSERT_TRUE(r->ok);
  const ir::Function &axpy = fn(*r, "axpy"), &dot = fn(*r, "dot");
  EXPECT_FALSE(axpy.params[1].written);
  EXPECT_TRUE(axpy.params[2].written);
  EXPECT_TRUE(axpy.result->isUnit());
  EXPECT_FALSE(dot.params[0].written);
  std::vector<double> x = {1, -2, 0.5};
  EXPECT_CLOSE(ir::evaluate(r->program, "f", {arr(x), num(0.75)}).scalar, helpers::f(x, 0.75));
}

// Param::inout: an array written after a read (here, in a loop that reads
// it, or through a callee that does); an output written first and read
// later is in/out too, a pure output is not.
TEST(FrontendArrays, InOutParameters) {
  auto r = lowerArrays(R"(
static void step(double *y, const double *k, int n) {
  for (int i = 0; i < n; ++i) y[i] += 0.5 * k[i] * y[i];
}
static void fill(double *o, int n, double v) {
  for (int i = 0; i < n; ++i) o[i] = v;
}
UNFAD_GRADIENT void f(const double *k, int n, double *y, double *out, double *acc) {
  step(y, k, n);
  fill(out, n, k[0]);
  acc[0] = k[0];
  acc[0] = acc[0] * k[1];
}
)");
  ASSERT_TRUE(r->ok);
  const ir::Function &step = fn(*r, "step"), &fill = fn(*r, "fill"), &f = fn(*r, "f");
  EXPECT_TRUE(step.params[0].inout);
  EXPECT_FALSE(step.params[1].inout);
  EXPECT_FALSE(fill.params[0].inout);
  EXPECT_TRUE(fill.params[0].written);
  EXPECT_FALSE(f.params[0].inout);
  EXPECT_TRUE(f.params[2].inout); // through step
  EXPECT_FALSE(f.params[3].inout);
  EXPECT_TRUE(f.params[4].inout); // written, read, written
}

// An output added into before it is assigned keeps its initial value: with
// other in/out parameters (the gradient runs f again) it is restored too.
TEST(FrontendArrays, AccumulatedOutputs) {
  auto r = lowerArrays(R"(
static void add_to(double *o, double v) { o[0] += v; }
UNFAD_GRADIENT void f(const double *k, double *y, double *sum, double *fresh, double *given) {
  y[0] = y[0] * k[0];
  add_to(sum, k[1]);
  fresh[0] = 0.0;
  fresh[0] += k[2];
  given[0] += k[0];
}
UNFAD_GRADIENT void g(const double *k, double *sum) { sum[0] += k[0]; }
)");
  ASSERT_TRUE(r->ok);
  const ir::Function &f = fn(*r, "f"), &g = fn(*r, "g");
  EXPECT_TRUE(f.params[1].inout);
  EXPECT_TRUE(f.params[2].inout);  // added into by a helper, never assigned
  EXPECT_FALSE(f.params[3].inout); // assigned first
  EXPECT_TRUE(f.params[4].inout);
  EXPECT_FALSE(g.params[1].inout); // no in/out parameter: g does not run again
}

TEST(FrontendArrays, VoidWithOutput) {
  auto r = lowerArrays(output_src);
  ASSERT_TRUE(r->ok);
  const ir::Function &f = fn(*r);
  EXPECT_TRUE(f.result->isUnit());
  EXPECT_TRUE(f.params[1].written);
  EXPECT_TRUE(f.params[1].active);
  EXPECT_FALSE(f.params[0].written);
  EXPECT_EQ(f.cxx.result.kind, ir::CxxType::Kind::Void);
  std::vector<double> x = {0.5, 1, -2}, want(3, 7.0);
  ir::Value out = arr(std::vector<double>(3, 7.0));
  ir::evaluate(r->program, "f", {arr(x), out, num(3)});
  output::f(x.data(), want.data(), 3);
  for (int i = 0; i < 3; ++i) EXPECT_CLOSE((*out.array)[i], want[i]);
}

TEST(FrontendArrays, DoWhile) {
  auto r = lowerArrays(dowhile_src);
  ASSERT_TRUE(r->ok);
  for (double x : {0.5, -10.0, 3.0}) EXPECT_CLOSE(ir::evaluate(r->program, "f", {num(x)}).scalar, dowhile::f(x));
}

TEST(FrontendArrays, LocalArrays) {
  auto r = lowerArrays(locals_src);
  ASSERT_TRUE(r->ok);
  std::array<double, 4> p = {1, 2, 3, 4};
  for (double x : {0.5, -1.5})
    EXPECT_CLOSE(ir::evaluate(r->program, "f", {arr({p.begin(), p.end()}), num(x)}).scalar, locals::f(p, x));
}

TEST(FrontendArrays, Diagnostics) {
  struct D {
    const char *code;
    const char *message;
  };
  std::vector<D> ds = {
      {"UNFAD_GRADIENT double f(const double *x, const double *y, double c) {\n  return *(c > 0 ? x + 1 : y); }",
       "cannot differentiate 'f': a pointer into different arrays on different paths is not supported"},
      {"UNFAD_GRADIENT double f(const double *x, const double *y, int n) {\n  double s = 0;\n  for (int i = 0; i < n; ++i) { double t[1] = {y[i]}; s += *x; x = t; }\n  return s; }",
       "cannot differentiate 'f': pointer 'x' is made to point into another array than the one it was initialised with, one not known where it is declared"},
      {"UNFAD_GRADIENT double f(double x, int n) {\n  double *p = new double[n]{1.0};\n  return x; }",
       "5:15: cannot differentiate 'f': 'new[]' with initial values is not supported"},
      {"UNFAD_GRADIENT double f(double x, std::vector<double> &v) {\n  v.push_back(x);\n  return x; }",
       "cannot differentiate 'f': 'push_back' is only supported on a local std::vector, and on an output std::vector parameter of the marked function after 'clear()'"},
      {"UNFAD_GRADIENT double f(double *x, int n) {\n  double s = x[0];\n  while (s < 10) {\n    x[1] = s;\n    s = 2 * x[1]; }\n  return s; }",
       "7:5: cannot differentiate 'f': array 'x' is updated in place in a 'while' loop, and its length is not known here (a pointer)"},
      {"static const double *g(const double *x) { double t[2] = {x[0], x[1]}; const double *p = t; return p; }\n"
       "UNFAD_GRADIENT double f(double *x) {\n  return g(x)[0]; }",
       "cannot differentiate 'f': 'g' returns a pointer into its own local array"},
      {"static void g(const double *a, double *b, int n) { if (n > 0) { b[0] = a[0]; g(a, b, n - 1); } }\nUNFAD_GRADIENT double f(double *x) {\n  g(x, x, 2);\n  return 1; }",
       "cannot differentiate 'f': array 'x' is passed twice to the recursive function 'g', which writes it"},
      {"UNFAD_GRADIENT void f(const double *x, int n) { }",
       "cannot differentiate 'f': return type 'void' is not floating-point, and the function writes no floating-point output parameter"},
      {"UNFAD_GRADIENT double f(const double **x) { return x[0][0]; }",
       "cannot differentiate 'f': pointers to pointers are not supported"},
      {"UNFAD_GRADIENT double f(double x) {\n  std::vector<std::vector<double>> a(2);\n  return x; }",
       "cannot differentiate 'f': local arrays of arrays are only supported with constant sizes"},
      {"UNFAD_GRADIENT void f(double (*a)[2], double x) {\n  a[0][1] += x * a[1][0]; }",
       "cannot differentiate 'f': array of arrays 'a' is written after it is read: in/out arrays of arrays"},
      {"UNFAD_GRADIENT double f(double x) {\n  double s = 0;\n  for (double v : {x, x}) s += v;\n  return s; }",
       "cannot differentiate 'f': range-based 'for' is only supported over arrays"},
  };
  for (auto &d : ds) {
    auto r = lower(d.code, std::string(d.code).find("std::") != std::string::npos);
    EXPECT_FALSE(r->ok) << d.code;
    std::string all = joined(r->diags);
    EXPECT_NE(all.find(d.message), std::string::npos) << "expected: " << d.message << "\ngot:\n" << all;
  }
}
