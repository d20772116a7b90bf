// The partial-derivative table against finite differences, for every
// operator of UNFAD_IR_OPS: the list is iterated through its macro, so a new
// operator is tested without touching this file. Each operator is wrapped in
// a marked function f(x...) = op(x...), differentiated by reverse mode (before
// and after optimisation) and compared with 4-point central differences of
// the primal run by the IR evaluator (an independent reference).
#include "unfad/ad/derivatives.h"
#include "unfad/ad/forward.h"
#include "unfad/ad/reverse.h"
#include "unfad/ir/ir.h"
#include "unfad/opt/optimize.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <vector>

using namespace unfad;
using namespace unfad::ir;

namespace {

struct OpInfo {
  Op op;
  const char *name;
  int arity;
};

const OpInfo kOps[] = {
#define UNFAD_X(N, S, A) {Op::N, S, A},
    UNFAD_IR_OPS(UNFAD_X)
#undef UNFAD_X
};

// op applied to float parameters as a float-valued expression, or null when
// the operator takes no floats. A predicate's bool is cast to the float type
// (its derivative is 0); a cast goes to the other float type.
Expr applyToFloats(const OpInfo &info, const std::vector<Expr> &xs) {
  TypeP t = xs[0]->type;
  if (info.op == Op::Cast) return Prim::makeCast(xs[0], t->scalar == Scalar::F64 ? Type::f32() : Type::f64());
  Expr e;
  try {
    e = Prim::make(info.op, xs);
  } catch (const IRError &) {
    return nullptr; // integers or booleans only
  }
  return e->type->isBool() ? Prim::makeCast(e, t) : e;
}

Program wrapInFunction(const OpInfo &info, const TypeP &t) {
  Function f;
  f.name = "f";
  f.cxx.name = "f";
  f.marked = true;
  std::vector<Expr> xs;
  for (int k = 0; k < info.arity; ++k) {
    std::string name = "x" + std::to_string(k);
    f.params.push_back({name, t, true});
    xs.push_back(Var::make(name, t));
  }
  f.body = applyToFloats(info, xs);
  if (!f.body) return {};
  f.result = f.body->type;
  Program p;
  p.functions.push_back(f);
  return p;
}

std::vector<Value> values(const std::vector<double> &xs) {
  std::vector<Value> out;
  for (double x : xs) out.push_back(Value::of(x));
  return out;
}

std::vector<double> finiteDifferences(const Program &p, const std::vector<double> &xs) {
  std::vector<double> g;
  for (size_t k = 0; k < xs.size(); ++k) {
    double h = 1e-3 * std::max(1.0, std::fabs(xs[k]));
    auto at = [&](double d) {
      auto ys = xs;
      ys[k] += d;
      return evaluate(p, "f", values(ys)).scalar;
    };
    g.push_back((at(-2 * h) - 8 * at(-h) + 8 * at(h) - at(2 * h)) / (12 * h));
  }
  return g;
}

std::vector<double> reverseGradient(const Program &primal, const Program &grad, const std::vector<double> &xs) {
  Program all = primal;
  for (auto &g : grad.functions) all.functions.push_back(g);
  Value r = evaluate(all, ad::gradFunctionName("f"), values(xs));
  std::vector<double> g;
  for (size_t k = 1; k < r.elems.size(); ++k) g.push_back(r.elems[k].scalar);
  return g;
}

// Forward mode's tangents along each unit direction: the partials, column
// by column, from the same table.
std::vector<double> forwardGradient(const Program &primal, const Program &jvps, const std::vector<double> &xs) {
  Program all = primal;
  for (auto &g : jvps.functions) all.functions.push_back(g);
  std::vector<double> g;
  for (size_t k = 0; k < xs.size(); ++k) {
    std::vector<double> args = xs;
    for (size_t j = 0; j < xs.size(); ++j) args.push_back(j == k ? 1.0 : 0.0);
    g.push_back(evaluate(all, ad::jvpFunctionName("f"), values(args)).elems.at(1).scalar);
  }
  return g;
}

// Points inside every operator's domain (asin, log, pow, ...) and away from
// the jumps of floor/round/...; the binary ones once with a < b, once a > b.
const std::vector<std::vector<double>> kUnaryPoints{{0.3}, {0.8}};
const std::vector<std::vector<double>> kBinaryPoints{{0.3, 0.45}, {0.8, 0.55}};

const std::vector<std::vector<double>> &pointsFor(const OpInfo &info) {
  static const std::vector<std::vector<double>> kAcoshPoints{{1.3}, {1.8}}; // (its domain: x >= 1)
  if (info.op == Op::Acosh) return kAcoshPoints;
  return info.arity == 1 ? kUnaryPoints : kBinaryPoints;
}

// ψ (digamma) only appears in derivatives (of lgamma and tgamma): its own
// derivative is not in the table, and no source construct lowers to it.
bool hasNoDerivative(const OpInfo &info) { return info.op == Op::Digamma; }

} // namespace

TEST(Derivatives, EveryFloatOperatorAgainstFiniteDifferences) {
  std::set<std::string> withoutFloats;
  for (const OpInfo &info : kOps) {
    if (hasNoDerivative(info)) continue;
    for (const TypeP &t : {Type::f64(), Type::f32()}) {
      Program p = wrapInFunction(info, t);
      if (p.functions.empty()) {
        withoutFloats.insert(info.name);
        continue;
      }
      Program rev = ad::reverse(p);
      Program opt = opt::optimize(rev);
      // a result rounded to f32 makes the differences noisy
      double tol = p.functions[0].result->scalar == Scalar::F32 ? 1e-3 : 1e-6;
      for (auto &xs : pointsFor(info)) {
        auto fd = finiteDifferences(p, xs);
        for (const Program *g : {&rev, &opt}) {
          auto ad = reverseGradient(p, *g, xs);
          ASSERT_EQ(ad.size(), fd.size()) << info.name;
          for (size_t k = 0; k < fd.size(); ++k)
            EXPECT_NEAR(ad[k], fd[k], tol * std::max(1.0, std::fabs(fd[k])))
                << info.name << " on " << str(t) << ", argument " << k << " at x0 = " << xs[0]
                << (g == &opt ? " (optimised)" : "");
        }
      }
    }
  }
  // The operators that take no floats at all: a new one must be added here
  // knowingly (a float operator is tested above without any change).
  EXPECT_EQ(withoutFloats, (std::set<std::string>{"mod", "and", "or", "not", "bitand", "bitor", "bitxor", "shl", "shr",
                                                  "bitnot"}));
}

TEST(Derivatives, ForwardModeAgainstFiniteDifferences) {
  for (const OpInfo &info : kOps) {
    if (hasNoDerivative(info)) continue;
    for (const TypeP &t : {Type::f64(), Type::f32()}) {
      Program p = wrapInFunction(info, t);
      if (p.functions.empty()) continue;
      p.functions[0].tangent = true;
      Program fwd = ad::forward(p);
      ASSERT_EQ(fwd.functions.size(), 1u);
      Program opt = opt::optimize(fwd);
      double tol = p.functions[0].result->scalar == Scalar::F32 ? 1e-3 : 1e-6;
      for (auto &xs : pointsFor(info)) {
        auto fd = finiteDifferences(p, xs);
        for (const Program *g : {&fwd, &opt}) {
          auto ad = forwardGradient(p, *g, xs);
          ASSERT_EQ(ad.size(), fd.size()) << info.name;
          for (size_t k = 0; k < fd.size(); ++k)
            EXPECT_NEAR(ad[k], fd[k], tol * std::max(1.0, std::fabs(fd[k])))
                << info.name << " on " << str(t) << ", direction " << k << " at x0 = " << xs[0]
                << (g == &opt ? " (optimised)" : "");
        }
      }
    }
  }
}

TEST(Derivatives, OneRuleResultPerArgument) {
  for (const OpInfo &info : kOps) {
    std::vector<Expr> xs;
    for (int k = 0; k < info.arity; ++k) xs.push_back(Var::make("x" + std::to_string(k), Type::f64()));
    Expr y = applyToFloats(info, xs);
    if (!y || hasNoDerivative(info)) continue;
    auto ds = ad::partials(info.op, xs, y);
    EXPECT_EQ(int(ds.size()), info.arity) << info.name;
    for (auto &d : ds) {
      if (!d) continue;
      EXPECT_TRUE(sameType(d->type, y->type)) << info.name << ": a partial of another type";
    }
  }
}

TEST(Derivatives, ModHasNoDerivativeAndSaysSo) {
  Expr a = Var::make("a", Type::f64()), b = Var::make("b", Type::f64());
  EXPECT_THROW(ad::partials(Op::Mod, {a, b}, a), IRError);
  EXPECT_THROW(ad::partials(Op::Digamma, {a}, a), IRError);
}
