// While loops that count (parallel.h):
//
//   while (s.k != b) s := (..., s.k + 1, ...)     (b not reading s)
//     ~>  fold _ in [0, b - s0.k) from s = s0 -> (..., s.k + 1, ...)
//
// with the trip count of the counter's condition and step:
//   k != b, step +1: b - k0        k != b, step -1: k0 - b
//   k <  b, step c > 0: k0 < b ? (b - k0 + c - 1) / c : 0
//   k >  b, step c < 0: k0 > b ? (k0 - b - c - 1) / -c : 0
// (`!=` with a step of 1: a loop that would step over b does not end).
//
// The counter's reads in the body become k0 + step * i, so that it is not
// carried as state (index_state.cpp drops it).
//
// Why: the front end makes a loop over an iterator or a pointer that is not
// a counted `for` (`for (; first != last; ++first)`, `while (p != end) s +=
// *p++`) a while loop. Reverse mode runs a while loop twice (once to count
// its iterations, once to tape them); as a fold it runs once, and the
// counter becomes a function of the index (index_state.cpp), so it is not
// even taped.
#include "unfad/parallel/parallel.h"
#include "each_function.h"
#include "unfad/ir/mutator.h"
#include "unfad/ir/traverse.h"

namespace unfad::parallel {

using namespace unfad::ir;

namespace {

// An expression that cannot change while the loop runs: it reads no loop
// state, only variables, constants, array sizes and integer arithmetic.
bool invariant(const Expr &e, const std::string &state) {
  if (auto v = e->as<Var>()) return v->name != state;
  if (e->is<Const>()) return true;
  if (auto s = e->as<Size>()) return invariant(s->array, state);
  if (auto p = e->as<Prim>()) {
    switch (p->op) {
    case Op::Add: case Op::Sub: case Op::Mul: case Op::Neg: case Op::Cast: break;
    default: return false;
    }
    for (auto &a : p->args)
      if (!invariant(a, state)) return false;
    return true;
  }
  if (auto pr = e->as<Proj>()) return invariant(pr->tuple, state);
  return false;
}

// `s.k` (or `s` for a state of one component): the component's number.
int componentOf(const Expr &e, const std::string &state, bool tupleState) {
  if (!tupleState) {
    auto v = e->as<Var>();
    return v && v->name == state ? 0 : -1;
  }
  auto p = e->as<Proj>();
  auto v = p ? p->tuple->as<Var>() : nullptr;
  return v && v->name == state ? p->index : -1;
}

// `e` with the variables its let chain binds replaced by their values
// (the chain's lets compute; a counter's update is read through them).
Expr resolve(Expr e, const LetChain &chain, int depth = 0) {
  if (depth > 8) return e;
  if (auto v = e->as<Var>())
    for (auto &[name, value] : chain.lets)
      if (name == v->name) return resolve(value, chain, depth + 1);
  if (auto p = e->as<Prim>()) {
    std::vector<Expr> args;
    for (auto &a : p->args) args.push_back(resolve(a, chain, depth + 1));
    return p->op == Op::Cast ? Prim::makeCast(args[0], p->type) : Prim::make(p->op, args);
  }
  return e;
}

// The counter's reads `s.k` (or `s`) replaced by its value at the
// iteration, k0 + step * i: its next value then reads no state, and
// indexDeterminedState takes it out of the loop's state.
class CounterAtIndex : public Mutator {
public:
  CounterAtIndex(std::string state, int k, bool tupleState, Expr value)
      : state_(std::move(state)), k_(k), tuple_(tupleState), value_(std::move(value)) {}
  Expr visit(const Proj *n, const Expr &self) override {
    if (auto v = n->tuple->as<Var>(); tuple_ && v && v->name == state_ && n->index == k_) return value_;
    return Mutator::visit(n, self);
  }
  Expr visit(const Var *n, const Expr &self) override { return !tuple_ && n->name == state_ ? value_ : self; }

private:
  std::string state_;
  int k_;
  bool tuple_;
  Expr value_;
};

class CountedWhile : public Mutator {
public:
  explicit CountedWhile(NameSupply &names) : names_(names) {}

private:
  NameSupply &names_;

  Expr visit(const While *, const Expr &self) override {
    Expr loop = mutateChildren(self);
    if (Expr r = rewrite(*loop->as<While>())) return r;
    return loop;
  }

  Expr rewrite(const While &w) {
    const TypeP &t = w.type;
    const bool tupleState = t->kind == Type::Kind::Tuple && t->structName.empty();
    // the condition: counter op bound
    LetChain condChain = unzipLets(w.cond);
    const Expr tested = resolve(condChain.tail, condChain);
    auto test = tested->as<Prim>();
    if (!test || test->args.size() != 2) return nullptr;
    Op op = test->op;
    Expr counter = test->args[0], bound = test->args[1];
    int k = componentOf(counter, w.state, tupleState);
    if (k < 0) {
      std::swap(counter, bound);
      k = componentOf(counter, w.state, tupleState);
      op = op == Op::Lt ? Op::Gt : op == Op::Gt ? Op::Lt : op;
    }
    if (k < 0 || (op != Op::Ne && op != Op::Lt && op != Op::Gt) || !counter->type->isInt() ||
        !invariant(bound, w.state))
      return nullptr;
    // the body: the counter's next value is counter + c, unconditionally
    LetChain bodyChain = unzipLets(w.body);
    Expr next = bodyChain.tail;
    if (tupleState) {
      auto tuple = next->as<Tuple>();
      if (!tuple || size_t(k) >= tuple->elems.size()) return nullptr;
      next = tuple->elems[size_t(k)];
    }
    const Expr stepped = resolve(next, bodyChain);
    auto step = stepped->as<Prim>();
    if (!step || (step->op != Op::Add && step->op != Op::Sub) || step->args.size() != 2) return nullptr;
    auto c = step->args[1]->as<Const>();
    if (!c || componentOf(resolve(step->args[0], bodyChain), w.state, tupleState) != k) return nullptr;
    int64_t by = step->op == Op::Add ? c->ivalue : -c->ivalue;
    if (by == 0 || (op == Op::Ne && by != 1 && by != -1) || (op == Op::Lt && by < 0) || (op == Op::Gt && by > 0))
      return nullptr;
    // the trip count, from the counter's first value
    std::vector<std::pair<std::string, Expr>> before;
    // (a tuple stays one, of named parts: a zero accumulator stays visibly zero for recognize)
    auto named = [&](const Expr &e) {
      if (e->is<Var>() || e->is<Const>()) return e;
      before.emplace_back(names_.fresh(w.state + "_init"), e);
      return Var::make(before.back().first, e->type);
    };
    Expr init = w.init;
    if (auto tuple = init->as<Tuple>()) {
      std::vector<Expr> parts;
      for (auto &e : tuple->elems) parts.push_back(named(e));
      init = Tuple::make(parts);
    } else {
      init = named(init);
    }
    Expr k0 = !tupleState ? init : init->is<Tuple>() ? init->as<Tuple>()->elems[size_t(k)] : Proj::make(init, k);
    auto sub = [](const Expr &a, const Expr &b) { return Prim::make(Op::Sub, {a, b}); };
    Expr n;
    if (op == Op::Ne) {
      n = by > 0 ? sub(bound, k0) : sub(k0, bound);
    } else {
      Expr span = op == Op::Lt ? sub(bound, k0) : sub(k0, bound);
      int64_t stride = by > 0 ? by : -by;
      if (stride != 1) span = Prim::make(Op::Div, {Prim::make(Op::Add, {span, Const::makeInt(stride - 1)}), Const::makeInt(stride)});
      n = If::make(Prim::make(op, {k0, bound}), span, Const::makeInt(0));
    }
    before.emplace_back(names_.fresh(w.state + "_trips"), n);
    Expr trips = Var::make(before.back().first, Type::i64());
    if (!k0->is<Var>() && !k0->is<Const>()) { // (read in every iteration)
      before.emplace_back(names_.fresh(w.state + "_from"), k0);
      k0 = Var::make(before.back().first, Type::i64());
    }
    const std::string i = names_.fresh("iteration");
    Expr at = Prim::make(Op::Add, {k0, Prim::make(Op::Mul, {Const::makeInt(by), Var::make(i, Type::i64())})});
    Expr body = CounterAtIndex(w.state, k, tupleState, at).mutate(w.body);
    return zipLets(before, Fold::make(Const::makeInt(0), trips, init, i, w.state, body));
  }
};

} // namespace

ir::Program countedWhileLoops(const ir::Program &p) { return rewriteEachFunction<CountedWhile>(p); }

} // namespace unfad::parallel
