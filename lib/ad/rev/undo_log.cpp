// Undo logs: what a loop iteration overwrites in a local array it also
// reads, when its stores sit in nested loops (or a mix of nested loops and
// branches). Every store pushes (index, old element) on one log per array;
// each iteration records where its entries start. The J^T of iteration `at`
// pops its entries, last first, so it recomputes from the memory the forward
// iteration found. Memory and time are O(elements overwritten), where a copy
// of the whole array per iteration cost O(iterations x array size).
//
// The log is allocated once, before the loop, with room for the most stores
// the loop can make: per iteration, a store counts 1, a branch the larger of
// its arms, a nested loop its trip count times its body's. That bound must
// be computable before the loop (nested bounds from values fixed outside the
// loop or from its index); when it is not (a while loop, bounds read from
// memory, a helper writing the array) reverse mode falls back to a copy, as
// it does when an iteration sweeps the whole array (a loop over its length).
#include "reverser.h"
#include "unfad/ir/counts.h"
#include "unfad/ir/effects.h"
#include "unfad/ir/equal.h"
#include "unfad/ir/mutator.h"
#include "unfad/ir/traverse.h"

#include <functional>

namespace unfad::ad::rev {

using namespace unfad::ir;

namespace {

bool isStoreTo(const Expr &e, const std::string &array) {
  auto s = e->as<Store>();
  auto v = s ? s->array->as<Var>() : nullptr;
  return v && v->name == array;
}

// The sum of `perIteration` over `index` in [lo, hi) (`trips` iterations):
// a product when it does not depend on the index, else a loop adding it up
// (a triangular nest).
Expr sumCounts(const Expr &lo, const Expr &hi, const Expr &trips, const std::string &index, const Expr &perIteration,
               const std::function<std::string(const std::string &)> &fresh) {
  if (countUses(perIteration, index) == 0) return mulCounts(trips, perIteration);
  std::string j = fresh("iteration"), c = fresh("stores");
  Expr atJ = substitute(perIteration, index, Var::make(j, Type::i64()));
  return Fold::make(lo, hi, Const::makeInt(0), j, c, Prim::make(Op::Add, {Var::make(c, Type::i64()), atJ}));
}

// May `e` leave the loop body before the lets after it (a throw, a call)?
bool mayLeave(const Expr &e) {
  struct Leaves : Visitor {
    bool found = false;
    void visit(const Throw *) override { found = true; }
    void visit(const Call *) override { found = true; }
    void visit(const While *) override { found = true; }
  } leaves;
  leaves.visitExpr(e);
  return leaves.found;
}

// How many stores to `array` one run of `e` makes at most, in terms of
// values bound outside the loop body (and its index); null when unknown.
struct StoresBound {
  const std::string &array;
  const std::set<std::string> &inside; // names bound in the body (and its state)
  std::unordered_map<std::string, Expr> pure; // the body's let-bound scalar code
  std::function<size_t(const Expr &, const std::string &)> writesTo;
  std::function<std::string(const std::string &)> fresh;
  Expr length;         // the array's (null: unknown)
  bool sweeps = false; // a nested loop over [0, length) stores into it
  std::set<std::string> open; // indices of the nested loops being counted
  // Arrays the body reads and never writes or resizes. A read of one among
  // the body's own lets, before anything that may leave the body, is made
  // by every iteration: evaluated before the loop it gives the same value
  // (`widths[l + 1]`, the length of the row an MLP's layer appends).
  std::set<std::string> readable;
  bool everyIteration = true;                 // counting the body's own lets, none leaving yet
  std::unordered_map<std::string, Expr> made; // arrays made in the body: their sizes
  std::set<std::string> resized;              // (unless the body resizes them)

  // `e` with the body's names replaced by their code; null if one is not pure.
  Expr resolve(Expr e) {
    struct MadeSizes : Mutator {
      const std::unordered_map<std::string, Expr> *made;
      Expr visit(const Size *z, const Expr &self) override {
        auto a = z->array->as<Var>();
        auto it = a ? made->find(a->name) : made->end();
        return it == made->end() ? self : it->second;
      }
    } sizes;
    sizes.made = &made;
    e = sizes.mutate(e);
    for (auto &v : freeVars(e)) {
      if (auto it = pure.find(v); it != pure.end()) {
        Expr value = resolve(it->second);
        if (!value) return nullptr;
        e = substitute(e, v, value);
      } else if (inside.count(v) && !open.count(v)) {
        return nullptr;
      }
    }
    return e;
  }

  Expr count(const Expr &e) {
    if (writesTo(e, array) == 0) {
      collectPure(e);
      return Const::makeInt(0);
    }
    if (e->is<Let>()) {
      LetChain chain = unzipLets(e);
      Expr total = Const::makeInt(0);
      for (auto &[name, value] : chain.lets) {
        total = addCounts(total, isStoreTo(value, array) ? Const::makeInt(1) : count(value));
        note(name, value);
      }
      return addCounts(total, count(chain.tail));
    }
    // (a branch's or a nested loop's reads are not made by every iteration)
    const bool was = everyIteration;
    everyIteration = false;
    Expr n = countConditional(e);
    everyIteration = was;
    return n;
  }

  Expr countConditional(const Expr &e) {
    if (auto i = e->as<If>()) return maxCounts(count(i->thenE), count(i->elseE));
    if (auto f = e->as<Fold>()) {
      Expr lo = resolve(f->lo), hi = resolve(f->hi);
      open.insert(f->index); // (a nested loop's bounds may use it: `for j = i + 1 .. n`)
      Expr body = count(f->body);
      open.erase(f->index);
      if (!lo || !hi || !body) return nullptr;
      if (auto zero = lo->as<Const>(); zero && zero->ivalue == 0 && length && alphaEqual(hi, length)) sweeps = true;
      return sumCounts(lo, hi, tripCount(lo, hi), f->index, body, fresh);
    }
    return nullptr; // a bare store, a while loop, a call given the array
  }

  void note(const std::string &name, const Expr &value) {
    if (hoistableScalar(value) || (everyIteration && hoistableScalar(value, &readable))) pure[name] = value;
    if (auto a = value->as<NewArray>(); a && !resized.count(name)) made[name] = a->size;
    if (mayLeave(value)) everyIteration = false;
  }

  void collectPure(const Expr &e) {
    if (!e->is<Let>()) return;
    for (auto &[name, value] : unzipLets(e).lets) note(name, value);
  }
};

} // namespace

// Forward code `e` of a loop body with every store to `array`, at any
// depth, logging the element it overwrites (see the file comment); null
// when the log cannot be sized before the loop.
Expr Reverser::logOverwrites(const Expr &e, const Expr &array, const LoopRecord &record, const Stack &bodyStack,
                             const Expr &at, Lets &lets, Lets &iterationStart, UndoLog &log) {
  const std::string &a = array->as<Var>()->name;
  std::set<std::string> inside = boundNames(e);
  inside.insert(bodyStack.back().value->as<Var>()->name); // the loop state
  auto freshName = [this](const std::string &hint) { return fresh(hint); };
  StoresBound bound{a, inside, {}, [this](const Expr &x, const std::string &n) { return writesTo(x, n); }, freshName,
                    sizes_.at(a), false, {}, {}, true, {}, {}};
  const MemoryEffects effects = memoryEffects(e);
  for (const Expr &r : resizedArrays(e))
    if (auto v = rootArray(r)->as<Var>()) bound.resized.insert(v->name);
  for (const std::string &v : freeVars(e))
    if (!inside.count(v) && !effects.writes.count(v) && !bound.resized.count(v)) bound.readable.insert(v);
  Expr perIteration = bound.count(e);
  // An iteration that rewrites the whole array is cheaper to save whole:
  // the same memory, without an index per element.
  if (!perIteration || bound.sweeps) return nullptr;
  // (the index may appear in the bound: `for j < i` in iteration i)
  const std::string index = bodyStack[bodyStack.size() - 2].value->as<Var>()->name;
  auto resolve = [&bound](const Expr &x) { return bound.resolve(x); };
  if (Expr dense = logDenseSweep(e, array, record, at, resolve, index, lets, log)) return dense;
  Expr capacity = sumCounts(record.lo, record.hi, record.n, index, perIteration, freshName);
  Expr size = bind(lets, "log_" + a + "_size", capacity);
  log.index = bind(lets, "log_" + a + "_index", NewArray::make(size, Type::i64(), true));
  log.old = bind(lets, "log_" + a + "_old", NewArray::make(size, array->type->elem(), true));
  log.top = bind(lets, "log_" + a + "_top", NewArray::make(Const::makeInt(1), Type::i64(), true));
  log.mark = bind(lets, "log_" + a + "_mark", NewArray::make(record.n, Type::i64(), true));
  bind(lets, "_", Store::make(log.top, Const::makeInt(0), Const::makeInt(0), Store::Mode::Set));
  Expr top = bind(iterationStart, "top_" + a, Index::make(log.top, Const::makeInt(0)));
  bind(iterationStart, "_", Store::make(log.mark, at, top, Store::Mode::Set));
  size_t logged = 0;
  Expr out = logStores(e, array, log, logged);
  if (logged != writesTo(e, a)) throw IRError("reverse: a store the undo log missed");
  return out;
}

// `e` with each `let _ = a[i] (+)= v` preceded by
//   let old = a[i]; let p = top[0]; index[p] = i; old[p] = old; top[0] = p + 1
Expr Reverser::logStores(const Expr &e, const Expr &array, const UndoLog &log, size_t &logged) {
  struct Logger : Mutator {
    Reverser *self;
    const Expr *array;
    const UndoLog *log;
    size_t *logged;
    Expr visit(const Let *l, const Expr &me) override {
      if (!isStoreTo(l->value, array->get()->as<Var>()->name)) return Mutator::visit(l, me);
      ++*logged;
      const std::string &a = array->get()->as<Var>()->name;
      Expr k = l->value->as<Store>()->index;
      Lets pre;
      Expr old = self->bind(pre, "old_" + a, Index::make(*array, k));
      Expr p = self->bind(pre, "log_at", Index::make(log->top, Const::makeInt(0)));
      self->bind(pre, "_", Store::make(log->index, p, k, Store::Mode::Set));
      self->bind(pre, "_", Store::make(log->old, p, old, Store::Mode::Set));
      self->bind(pre, "_", Store::make(log->top, Const::makeInt(0), Prim::make(Op::Add, {p, Const::makeInt(1)}),
                                       Store::Mode::Set));
      return unf::wrapLets(pre, Let::make(l->name, l->value, mutate(l->body)));
    }
  } logger;
  logger.self = this;
  logger.array = &array;
  logger.log = &log;
  logger.logged = &logged;
  return logger.mutate(e);
}

// The common shape of an in-place update, `for (i = lo; i < hi; ++i) a[i] = ...`
// nested in the loop (the RK4 step's `y[i] += ...`): when that loop's store
// is the body's only write to `array`, at the inner loop's own index, and
// its bounds are fixed before the outer loop, each iteration overwrites the
// dense segment [lo, hi): its old elements go to row `at` of a slab of
// (hi - lo) per iteration, with no index, top or mark (half the memory of
// a log, and no store-to-load chain through the log's top in the hot loop).
Expr Reverser::logDenseSweep(const Expr &e, const Expr &array, const LoopRecord &record, const Expr &at,
                             const std::function<Expr(const Expr &)> &resolve, const std::string &outerIndex,
                             Lets &lets, UndoLog &log) {
  const std::string &a = array->as<Var>()->name;
  if (writesTo(e, a) != 1) return nullptr;
  const Fold *sweep = nullptr;
  for (auto &[name, value] : unzipLets(e).lets) {
    if (writesTo(value, a) == 0) continue;
    auto f = value->as<Fold>();
    if (!f) return nullptr;
    Expr counter = Var::make(f->index, Type::i64());
    for (auto &[n, v] : unzipLets(f->body).lets)
      if (isStoreTo(v, a) && alphaEqual(v->as<Store>()->index, counter)) sweep = f;
    break;
  }
  if (!sweep) return nullptr;
  Expr lo = resolve(sweep->lo), hi = resolve(sweep->hi);
  if (!lo || !hi || countUses(lo, outerIndex) || countUses(hi, outerIndex)) return nullptr;
  log.lo = bind(lets, "sweep_" + a + "_lo", lo);
  log.stride = bind(lets, "sweep_" + a + "_length", tripCount(log.lo, hi));
  log.old = bind(lets, "tape_" + a + "_old",
                 NewArray::make(Prim::make(Op::Mul, {record.n, log.stride}), array->type->elem(), true));
  struct Slab : Mutator {
    Reverser *self;
    const Expr *array, *at;
    const UndoLog *log;
    const Fold *sweep;
    Expr visit(const Let *l, const Expr &me) override {
      auto s = l->value->as<Store>();
      auto v = s ? s->array->as<Var>() : nullptr;
      if (!v || v->name != array->get()->as<Var>()->name) return Mutator::visit(l, me);
      Lets pre;
      Expr old = self->bind(pre, "old_" + v->name, Index::make(*array, s->index));
      Expr offset = Prim::make(Op::Sub, {s->index, sweep->lo});
      Expr row = Prim::make(Op::Mul, {*at, log->stride});
      self->bind(pre, "_", Store::make(log->old, Prim::make(Op::Add, {row, offset}), old, Store::Mode::Set));
      return unf::wrapLets(pre, Let::make(l->name, l->value, mutate(l->body)));
    }
  } slab;
  slab.self = this;
  slab.array = &array;
  slab.at = &at;
  slab.log = &log;
  slab.sweep = sweep;
  return slab.mutate(e);
}

// Before the J^T recomputes iteration `at`: its log entries put back, last
// first, and popped (a dense sweep's row: its elements are distinct, any
// order).
void Reverser::undoLogged(const Expr &array, const UndoLog &log, const Expr &at, Lets &out) {
  if (log.stride) {
    std::string q = fresh("k"), unit = fresh("undo");
    Expr qv = Var::make(q, Type::i64());
    Expr from = Prim::make(Op::Add, {Prim::make(Op::Mul, {at, log.stride}), qv});
    Expr undo = Store::make(array, Prim::make(Op::Add, {log.lo, qv}), Index::make(log.old, from), Store::Mode::Set);
    bind(out, "_", Fold::make(Const::makeInt(0), log.stride, ir::Tuple::make({}), q, unit,
                              Let::make(fresh("_"), undo, ir::Tuple::make({}))));
    return;
  }
  Expr top = bind(out, "log_top", Index::make(log.top, Const::makeInt(0)));
  Expr from = bind(out, "log_from", Index::make(log.mark, at));
  std::string q = fresh("q"), unit = fresh("undo");
  Expr qv = Var::make(q, Type::i64());
  std::string k = fresh("k");
  Expr kv = Var::make(k, Type::i64());
  Expr undo = Let::make(k, Index::make(log.index, qv),
                        Let::make(fresh("_"), Store::make(array, kv, Index::make(log.old, qv), Store::Mode::Set),
                                  ir::Tuple::make({})));
  bind(out, "_", Fold::make(from, top, ir::Tuple::make({}), q, unit, undo, true));
  bind(out, "_", Store::make(log.top, Const::makeInt(0), from, Store::Mode::Set));
}

} // namespace unfad::ad::rev
