// The IR's node-shape tables (traverse.h) and memory effects (effects.h):
// children in evaluation order, binders and their scope, rebuilding (the
// same node when nothing changed), capture-avoiding substitution through
// every binder kind, let chains, callees, and reads/writes per array.
#include "unfad/ir/counts.h"
#include "unfad/ir/effects.h"
#include "unfad/ir/equal.h"
#include "unfad/ir/ir.h"
#include "unfad/ir/json.h"
#include "unfad/ir/mutator.h"
#include "unfad/ir/traverse.h"
#include "unfad/unf/unf.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

using namespace unfad::ir;

namespace {

Expr f64(const std::string &n) { return Var::make(n, Type::f64()); }
Expr i64(const std::string &n) { return Var::make(n, Type::i64()); }
Expr arr(const std::string &n) { return Var::make(n, Type::array(Type::f64())); }

// One node of every kind that binds a name, each using `y` under the binder
// and `x` free.
std::vector<Expr> binderNodes() {
  Expr x = f64("x"), y = f64("y");
  return {
      Let::make("y", x, Prim::make(Op::Mul, {y, x})),
      Fold::make(Const::makeInt(0), i64("n"), x, "i", "y", Prim::make(Op::Add, {y, x})),
      While::make(x, "y", Prim::make(Op::Lt, {y, x}), Prim::make(Op::Add, {y, x})),
      Build::make(i64("n"), "y", Prim::make(Op::Add, {Prim::makeCast(Var::make("y", Type::i64()), Type::f64()), x})),
      Sum::make(Const::makeInt(0), i64("n"), "y",
                Prim::make(Op::Mul, {Prim::makeCast(Var::make("y", Type::i64()), Type::f64()), x})),
      Lambda::make({{"y", Type::f64()}}, Prim::make(Op::Sub, {y, x})),
  };
}

TEST(IRTables, ChildrenAreInEvaluationOrder) {
  Expr a = arr("a"), i = i64("i"), v = f64("v");
  auto kids = children(Store::make(a, i, v, Store::Mode::Add));
  ASSERT_EQ(kids.size(), 3u);
  EXPECT_EQ(kids[0], a);
  EXPECT_EQ(kids[1], i);
  EXPECT_EQ(kids[2], v);
  Expr ct = f64("ct");
  auto pb = Pullback::make("g", {v, a}, ct, Type::tuple({Type::f64(), Type::unit()}), {arr("d_a")});
  auto pk = children(pb);
  ASSERT_EQ(pk.size(), 4u);
  EXPECT_EQ(pk[2], ct);
  EXPECT_EQ(pk[3]->as<Var>()->name, "d_a");
}

TEST(IRTables, RebuildReturnsTheSameNodeWhenNothingChanged) {
  for (auto &e : binderNodes()) {
    EXPECT_EQ(rebuild(e, children(e)), e) << print(e);
    auto names = scopeOf(*e).binders;
    std::vector<std::string> same;
    for (auto &b : names) same.push_back(b.name);
    EXPECT_EQ(rebuild(e, children(e), same), e) << print(e);
  }
}

TEST(IRTables, RebuildWithNewBinderNamesRenamesOnlyTheBinder) {
  Expr let = Let::make("y", f64("x"), f64("y"));
  Expr r = rebuild(let, {f64("x"), f64("z")}, {"z"});
  ASSERT_TRUE(r->is<Let>());
  EXPECT_EQ(r->as<Let>()->name, "z");
  EXPECT_EQ(freeVars(r), std::vector<std::string>{"x"});
}

TEST(IRTables, BindersScopeTheirSuffixOfChildren) {
  for (auto &e : binderNodes()) {
    Scope s = scopeOf(*e);
    ASSERT_FALSE(s.binders.empty()) << print(e);
    size_t n = children(e).size();
    EXPECT_LT(s.firstScopedChild, n) << print(e);
    EXPECT_TRUE(s.sees(n - 1)) << print(e); // the body always sees them
    if (s.firstScopedChild > 0) {
      EXPECT_FALSE(s.sees(0)) << print(e);
    }
    // `y` is bound everywhere it is used, `x` and `n` are free.
    for (auto &v : freeVars(e)) EXPECT_TRUE(v == "x" || v == "n") << v << " free in " << print(e);
  }
}

TEST(IRTables, SubstitutionAvoidsCaptureUnderEveryBinder) {
  // x := y + 1: every binder named y must be renamed, and the substituted y
  // must stay free.
  Expr value = Prim::make(Op::Add, {f64("y"), Const::make(1.0)});
  for (auto &e : binderNodes()) {
    Expr s = substitute(e, "x", value);
    auto fv = freeVars(s);
    EXPECT_TRUE(std::find(fv.begin(), fv.end(), "y") != fv.end()) << print(s);
    EXPECT_TRUE(std::find(fv.begin(), fv.end(), "x") == fv.end()) << print(s);
    EXPECT_EQ(countUses(s, "y"), countUses(e, "x")) << print(s);
  }
}

TEST(IRTables, SubstitutionStopsAtAShadowingBinder) {
  Expr e = Let::make("x", Const::make(2.0), f64("x"));
  EXPECT_EQ(substitute(e, "x", f64("z")), e);
}

TEST(IRTables, SubstitutionValuesMatchTheEvaluator) {
  // let y = x * 2 in y + x, with x := 3 (via substitution and via the env).
  Expr e = Let::make("y", Prim::make(Op::Mul, {f64("x"), Const::make(2.0)}), Prim::make(Op::Add, {f64("y"), f64("x")}));
  Program p;
  Value direct = evaluate(p, e, {{"x", Value::of(3.0)}});
  Value substituted = evaluate(p, substitute(e, "x", Const::make(3.0)), {});
  EXPECT_DOUBLE_EQ(direct.scalar, 9.0);
  EXPECT_DOUBLE_EQ(substituted.scalar, 9.0);
}

TEST(IRTables, LetChainsUnzipAndZipBack) {
  Expr e = Let::make("a", f64("x"), Let::make("b", f64("a"), Prim::make(Op::Add, {f64("a"), f64("b")})));
  LetChain c = unzipLets(e);
  ASSERT_EQ(c.lets.size(), 2u);
  EXPECT_EQ(c.lets[0].first, "a");
  EXPECT_EQ(c.lets[1].first, "b");
  EXPECT_TRUE(c.tail->is<Prim>());
  EXPECT_EQ(print(zipLets(c.lets, c.tail)), print(e));
}

TEST(IRTables, CalleesOnceEachInFirstOccurrenceOrder) {
  Expr x = f64("x");
  Expr e = Prim::make(Op::Add, {Call::make("g", {x}, Type::f64()),
                                Prim::make(Op::Mul, {Call::make("h", {x}, Type::f64()), Call::make("g", {x}, Type::f64())})});
  EXPECT_EQ(callees(e), (std::vector<std::string>{"g", "h"}));
}

TEST(MemoryEffects, ReadsWritesAndAllocationsPerArray) {
  Expr a = arr("a"), b = arr("b"), i = i64("i");
  Expr e = Let::make("_", Store::make(b, i, Index::make(a, i), Store::Mode::Set), NewArray::make(i, Type::f64()));
  MemoryEffects fx = memoryEffects(e);
  EXPECT_EQ(fx.reads, std::set<std::string>{"a"});
  EXPECT_EQ(fx.writes, std::set<std::string>{"b"});
  EXPECT_TRUE(fx.readsMemory && fx.writesMemory && fx.stores && fx.allocates);
  EXPECT_FALSE(fx.calls);
  MemoryEffects reader = memoryEffects(Index::make(b, i));
  EXPECT_TRUE(fx.clobbers(reader));
  EXPECT_FALSE(reader.clobbers(fx));
}

TEST(MemoryEffects, CallsWriteWhatTheCalleeWrites) {
  Expr a = arr("a"), b = arr("b");
  Program p;
  Function g;
  g.name = "g";
  g.params = {{"in", Type::array(Type::f64()), true, false}, {"out", Type::array(Type::f64()), true, true}};
  g.result = Type::unit();
  g.body = Store::make(Var::make("out", Type::array(Type::f64())), Const::makeInt(0),
                       Index::make(Var::make("in", Type::array(Type::f64())), Const::makeInt(0)), Store::Mode::Set);
  p.functions.push_back(g);
  Expr call = Call::make("g", {a, b}, Type::unit());
  // Judged locally, a call may write every array it is given.
  EXPECT_EQ(memoryEffects(call).writes, (std::set<std::string>{"a", "b"}));
  EXPECT_FALSE(memoryEffects(call).stores);
  // With the program, only the parameter the callee writes.
  MemoryEffects fx = memoryEffects(call, &p);
  EXPECT_EQ(fx.writes, std::set<std::string>{"b"});
  EXPECT_EQ(fx.reads, (std::set<std::string>{"a", "b"}));
  EXPECT_TRUE(fx.stores && fx.calls);
  EXPECT_TRUE(hasEffects(call, &p));
  EXPECT_TRUE(mayWrite(call));
}

TEST(Traversal, DefaultMutatorRebuildsOnlyWhatChanged) {
  struct RenameZ : Mutator {
    Expr visit(const Var *n, const Expr &self) override { return n->name == "z" ? f64("w") : self; }
  };
  Expr untouched = Prim::make(Op::Add, {f64("x"), f64("y")});
  Expr e = If::make(Prim::make(Op::Lt, {f64("x"), f64("z")}), untouched, f64("z"));
  Expr r = RenameZ().mutate(e);
  ASSERT_NE(r, e);
  EXPECT_EQ(r->as<If>()->thenE, untouched); // the unchanged branch is shared
  EXPECT_EQ(RenameZ().mutate(untouched), untouched);
}

} // namespace

// An opaque call (a function without a derivative on passive values): its
// arguments are its children, it rebuilds and round-trips through JSON, and
// the evaluator knows lgamma/tgamma/fmod and refuses any other name.
TEST(IRTables, OpaqueCallsAreChildrenRebuiltEvaluatedOrRefused) {
  Expr n = i64("n");
  Expr half = Prim::make(Op::Mul, {Const::make(0.5), Prim::makeCast(n, Type::f64())});
  Expr call = Opaque::make("std::lgamma", {half}, Type::f64());
  ASSERT_EQ(children(call).size(), 1u);
  EXPECT_EQ(rebuild(call, children(call)), call);
  EXPECT_EQ(print(exprFromJson(toJson(call))), print(call));
  Program empty;
  Value v = evaluate(empty, call, {{"n", Value::of(5)}});
  EXPECT_NEAR(v.scalar, std::lgamma(2.5), 1e-12);
  Expr unknown = Opaque::make("::lookup", {n}, Type::f64());
  EXPECT_THROW(evaluate(empty, unknown, {{"n", Value::of(1)}}), IRError);
}

// A read of passive data (`mesh.base(j, v)`) keeps its `read` mark through
// a rebuild with new children, JSON and UNF and back, and differs from a
// computing Opaque of the same spelling: the reverser re-reads one and
// tapes the other.
TEST(IRTables, OpaqueReadsKeepTheirMarkThroughEveryStage) {
  Expr j = i64("j");
  Expr read = Opaque::make("(mesh.base(\x1f))", {j}, Type::f64(), /*read=*/true);
  Expr computed = Opaque::make("(mesh.base(\x1f))", {j}, Type::f64());
  EXPECT_FALSE(alphaEqual(read, computed));
  auto isRead = [](const Expr &e) { return e->as<Opaque>() && e->as<Opaque>()->read; };
  EXPECT_TRUE(isRead(rebuild(read, {i64("k")})));
  EXPECT_TRUE(isRead(exprFromJson(toJson(read))));
  EXPECT_FALSE(isRead(exprFromJson(toJson(computed))));
  unfad::unf::Term t = unfad::unf::toUnf(read, {{"j", Type::i64()}});
  auto opaque = std::find_if(t.instrs.begin(), t.instrs.end(),
                             [](const unfad::unf::Instr &in) { return in.kind == unfad::unf::Instr::Kind::Opaque; });
  ASSERT_NE(opaque, t.instrs.end());
  EXPECT_TRUE(opaque->read);
}

// The length of a range [lo, hi) of index expressions: shared terms cancel
// (`(i + 1) * d - i * d` is d), and the result is hi - lo at every point.
TEST(Counts, DifferenceCancelsSharedTerms) {
  Expr i = Var::make("i", Type::i64()), d = Var::make("d", Type::i64()), k = Var::make("k", Type::i64());
  auto c = [](int64_t v) { return Const::makeInt(v); };
  auto add = [](Expr a, Expr b) { return Prim::make(Op::Add, {a, b}); };
  auto mul = [](Expr a, Expr b) { return Prim::make(Op::Mul, {a, b}); };
  EXPECT_EQ(print(differenceOf(mul(add(i, c(1)), d), mul(i, d))), "d");
  EXPECT_EQ(print(differenceOf(add(add(c(0), k), c(1)), add(c(0), k))), "1");
  EXPECT_EQ(print(differenceOf(k, k)), "0");
  Program empty;
  const std::vector<std::pair<Expr, Expr>> ranges = {
      {mul(add(i, c(2)), add(d, k)), mul(i, d)}, {add(mul(c(3), i), k), Prim::make(Op::Sub, {k, i})},
      {Prim::make(Op::Div, {k, c(2)}), Prim::make(Op::Neg, {i})}};
  for (auto &[hi, lo] : ranges)
    for (int64_t iv : {-2, 0, 3})
      for (int64_t kv : {1, 5}) {
        std::vector<std::pair<std::string, Value>> env = {{"i", Value::of(double(iv))}, {"d", Value::of(4.0)},
                                                          {"k", Value::of(double(kv))}};
        EXPECT_EQ(evaluate(empty, differenceOf(hi, lo), env).scalar,
                  evaluate(empty, Prim::make(Op::Sub, {hi, lo}), env).scalar)
            << print(hi) << " - " << print(lo);
      }
}
