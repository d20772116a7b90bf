// The optimiser's registry and pipeline, dump-after-pass, ir::alphaEqual,
// and the folding rules that must not change what the code computes.
#include "unfad/driver/pipeline.h"
#include "unfad/ir/equal.h"
#include "unfad/opt/optimize.h"
#include "unfad/opt/passes.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using namespace unfad;
using namespace unfad::ir;

namespace {

Expr x() { return Var::make("x", Type::f64()); }
Expr i64(int64_t v) { return Const::makeInt(v); }

// f(x) = x * x, marked.
Program square() {
  Function f;
  f.name = "square";
  f.params.push_back({"x", Type::f64(), true, false});
  f.result = Type::f64();
  f.body = Let::make("y", Prim::make(Op::Mul, {x(), x()}), Var::make("y", Type::f64()));
  f.marked = true;
  Program p;
  p.functions.push_back(f);
  return p;
}

} // namespace

TEST(Passes, RegistryListsEveryPassInPipelineOrder) {
  const auto &names = opt::passNames();
  ASSERT_EQ(names.size(), 19u);
  EXPECT_EQ(names[9], "sized-allocations");
  EXPECT_EQ(names[16], "value-pullbacks");
  EXPECT_EQ(names[17], "first-adds");
  EXPECT_EQ(names.front(), "lower-parallel");
  EXPECT_EQ(names[1], "hoist-throws");
  EXPECT_EQ(names[2], "partial-eval");
  EXPECT_EQ(names.back(), "hoist-invariants");
  for (auto &n : names) EXPECT_NE(opt::findPass(n), nullptr) << n;
  EXPECT_EQ(opt::findPass("no-such-pass"), nullptr);
  EXPECT_TRUE(isPassName("dead-code"));
  EXPECT_TRUE(isPassName("dead-loop-state"));
  EXPECT_FALSE(isPassName("deadcode"));
}

TEST(Passes, DumpAfterTheLastPassIsTheOptimisedDump) {
  Program p = square();
  EXPECT_EQ(dumpAfterPass(p, "hoist-invariants", false), dump(p, DumpStage::Optimized, false));
  EXPECT_EQ(dumpAfterPass(p, "hoist-invariants", true), dump(p, DumpStage::Optimized, true));
  // Right after lowering nothing is evaluated: the continuations are there.
  EXPECT_NE(dumpAfterPass(p, "lower-parallel", false).find("fun ("), std::string::npos);
  EXPECT_EQ(dumpAfterPass(p, "partial-eval", false).find("fun ("), std::string::npos);
  EXPECT_THROW(dumpAfterPass(p, "no-such-pass", false), IRError);
}

// r = if x > 0 then x * x else (throw E; 0.0); r + 1
Expr checkedSquare() {
  Expr thrown = Let::make("_", Throw::make("std::domain_error(\"x\")", Type::unit()), Const::make(0.0));
  Expr r = If::make(Prim::make(Op::Gt, {x(), Const::make(0.0)}), Prim::make(Op::Mul, {x(), x()}), thrown);
  return Let::make("r", r, Prim::make(Op::Add, {Var::make("r", Type::f64()), Const::make(1.0)}));
}

double run(const Expr &e, double at) {
  return evaluate(Program(), e, {{"x", Value::of(at)}}).scalar;
}

// The check before the rest computes what the branch did, and throws where
// it threw; the throw survives every pass, and partial evaluation folds
// what the check proves (x > 0 after it).
TEST(Passes, HoistThrowsKeepsValuesAndThrows) {
  bool changed = false;
  Expr before = checkedSquare(), after = opt::hoistThrows(before, {}, &changed);
  EXPECT_TRUE(changed);
  EXPECT_FALSE(after->as<Let>()->value->is<If>()); // r is no longer chosen by a branch
  for (double at : {0.5, 3.0}) EXPECT_EQ(run(before, at), run(after, at));
  EXPECT_THROW(run(before, -1.0), Thrown);
  EXPECT_THROW(run(after, -1.0), Thrown);
  Expr optimized = opt::optimize(after);
  EXPECT_EQ(run(optimized, 3.0), 10.0);
  EXPECT_THROW(run(optimized, -1.0), Thrown);
  bool again = true;
  opt::hoistThrows(after, {}, &again);
  EXPECT_FALSE(again); // a check is left as it is
}

TEST(AlphaEqual, EqualUpToBoundNames) {
  Expr a = Let::make("u", Prim::make(Op::Add, {x(), x()}), Var::make("u", Type::f64()));
  Expr b = Let::make("w", Prim::make(Op::Add, {x(), x()}), Var::make("w", Type::f64()));
  EXPECT_TRUE(alphaEqual(a, b));
  // A free variable only equals itself, even where the other side binds it.
  Expr freeW = Let::make("u", Prim::make(Op::Add, {x(), x()}), Var::make("w", Type::f64()));
  EXPECT_FALSE(alphaEqual(freeW, b));
  EXPECT_FALSE(alphaEqual(Const::make(0.0), Const::make(-0.0)));
  EXPECT_TRUE(alphaEqual(Const::make(std::nan("")), Const::make(std::nan(""))));
  Expr loopA = Fold::make(i64(0), i64(3), Const::make(0.0), "i", "s",
                          Prim::make(Op::Add, {Var::make("s", Type::f64()), x()}), false);
  Expr loopB = Fold::make(i64(0), i64(3), Const::make(0.0), "j", "t",
                          Prim::make(Op::Add, {Var::make("t", Type::f64()), x()}), false);
  EXPECT_TRUE(alphaEqual(loopA, loopB));
  Expr reversed = Fold::make(i64(0), i64(3), Const::make(0.0), "j", "t",
                             Prim::make(Op::Add, {Var::make("t", Type::f64()), x()}), true);
  EXPECT_FALSE(alphaEqual(loopA, reversed));
}

TEST(Folding, IntegerDivisionThatWouldTrapIsLeftForRunTime) {
  const int64_t min = std::numeric_limits<int64_t>::min();
  EXPECT_EQ(print(opt::optimize(Prim::make(Op::Div, {i64(7), i64(2)}))), "3");
  EXPECT_EQ(print(opt::optimize(Prim::make(Op::Mod, {i64(-7), i64(2)}))), "-1");
  EXPECT_EQ(print(opt::optimize(Prim::make(Op::Div, {i64(5), i64(0)}))), "div(5, 0)");
  EXPECT_EQ(print(opt::optimize(Prim::make(Op::Mod, {i64(5), i64(0)}))), "mod(5, 0)");
  EXPECT_TRUE(opt::optimize(Prim::make(Op::Div, {i64(min), i64(-1)}))->is<Prim>());
  EXPECT_TRUE(opt::optimize(Prim::make(Op::Mod, {i64(min), i64(-1)}))->is<Prim>());
  EXPECT_TRUE(opt::optimize(Prim::make(Op::Add, {i64(std::numeric_limits<int64_t>::max()), i64(1)}))->is<Prim>());
}

TEST(Folding, ZeroTimesAValueThatMayBeInfiniteStaysInPrimalCode) {
  // Outside continuations 0 * x is not 0: x may be inf or NaN.
  EXPECT_EQ(print(opt::optimize(Prim::make(Op::Mul, {Const::make(0.0), x()}))), "mul(0.0, x)");
  EXPECT_EQ(print(opt::optimize(Prim::make(Op::Div, {Const::make(0.0), x()}))), "div(0.0, x)");
  // A finite constant, or an integer converted to floating point, may go.
  EXPECT_EQ(print(opt::optimize(Prim::make(Op::Mul, {Const::make(0.0), Const::make(2.0)}))), "0.0");
  Expr n = Prim::makeCast(Var::make("n", Type::i64()), Type::f64());
  EXPECT_EQ(print(opt::optimize(Prim::make(Op::Mul, {n, Const::make(0.0)}))), "0.0");
  // In a continuation's body a zero is an absent cotangent: 0 * x is 0.
  Expr k = Lambda::make({{"d", Type::f64()}}, Prim::make(Op::Mul, {Var::make("d", Type::f64()), x()}));
  EXPECT_EQ(print(opt::optimize(App::make(k, {Const::make(0.0)}))), "0.0");
}
