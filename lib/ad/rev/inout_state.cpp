// The in/out arrays' final state: f_grad must leave an in/out array as f
// does. The forward sweep computes exactly that state; the reverse sweep
// then puts back what each store overwrote, for the J^Ts that read the
// memory they found, and f ran again at the end to redo the writes (a
// second primal run, ode's gradient paying 1 of its 5).
//
// When no J^T reads an in/out array at all (every value its partials need
// was taped: the stages of a time step taped per step, nested_tapes.cpp),
// the reverse sweep's stores into it only serve that rerun. Then they go,
// and so does the rerun: the array keeps the forward sweep's final state.
// The reverse sweep is the code in the continuations (the lambdas), the
// forward sweep the lets around them. There, a recomputed body may replay
// a store to the array and undo it, reading the element it puts back:
// such stores, and then the reads only they used, are dropped; if the
// array's name (or a view or alias of it) still occurs, a J^T reads it, and
// everything is kept as it was.
#include "reverser.h"
#include "unfad/ir/mutator.h"

#include <set>
#include <unordered_map>

namespace unfad::ad::rev {

using namespace unfad::ir;

namespace {

// The names bound to `arrays` or to views of them, anywhere in `lets`.
std::set<std::string> aliasesOf(const Lets &lets, const std::set<std::string> &arrays) {
  struct Aliases : Visitor {
    std::set<std::string> names;
    bool grew = false;
    void visit(const Let *n) override {
      if (n->value->type->isArray())
        if (auto v = rootArray(n->value)->as<Var>(); v && names.count(v->name) && names.insert(n->name).second)
          grew = true;
      Visitor::visit(n);
    }
  } aliases;
  aliases.names = arrays;
  Expr all = unf::wrapLets(lets, ir::Tuple::make({}));
  do {
    aliases.grew = false;
    aliases.visitExpr(all);
  } while (aliases.grew);
  return aliases.names;
}

// Inside the continuations: the lets storing into `arrays` (as the undo of
// a store replayed by a recomputation, or the put-back of a whole
// iteration), then the reads of `arrays` nothing uses any more (what such
// an undo put back); names used nowhere only.
struct DropInLambdas : Mutator {
  const std::set<std::string> *arrays;
  const std::unordered_map<std::string, int> *uses;
  bool reads = false; // drop the unused reads, not the stores
  int depth = 0;
  bool changed = false;
  Expr visit(const Lambda *n, const Expr &self) override {
    ++depth;
    Expr r = Mutator::visit(n, self);
    --depth;
    return r;
  }
  bool ofArrays(const Expr &array) const {
    auto v = rootArray(array)->as<Var>();
    return v && arrays->count(v->name);
  }
  Expr visit(const Let *n, const Expr &self) override {
    if (depth > 0 && !uses->count(n->name)) {
      auto st = n->value->as<Store>();
      auto ix = n->value->as<Index>();
      if ((!reads && st && ofArrays(st->array)) || (reads && ix && ofArrays(ix->array))) {
        changed = true;
        return mutate(n->body);
      }
    }
    return Mutator::visit(n, self);
  }
};

std::unordered_map<std::string, int> useCounts(const Lets &lets) {
  struct Count : Visitor {
    std::unordered_map<std::string, int> uses;
    void visit(const Var *n) override { ++uses[n->name]; }
  } count;
  for (auto &[name, value] : lets) count.visitExpr(value);
  return count.uses;
}

Lets dropInLambdas(const Lets &lets, const std::set<std::string> &arrays, bool reads, bool &changed) {
  const auto uses = useCounts(lets);
  DropInLambdas drop;
  drop.arrays = &arrays;
  drop.uses = &uses;
  drop.reads = reads;
  Lets out = lets;
  for (auto &[name, value] : out) value = drop.mutate(value);
  changed = drop.changed;
  return out;
}

} // namespace

bool keepForwardInOutState(Lets &lets, const std::set<std::string> &inout) {
  const std::set<std::string> arrays = aliasesOf(lets, inout);
  bool changed = false;
  Lets dropped = dropInLambdas(lets, arrays, /*reads=*/false, changed);
  for (bool more = true; more;) dropped = dropInLambdas(dropped, arrays, /*reads=*/true, more);
  // Anything left (a read whose value is used, a store not bound by a
  // let): the reverse sweep needs the array's memory; nothing is dropped.
  struct Left : Visitor {
    const std::set<std::string> *arrays;
    int depth = 0;
    bool left = false;
    void visit(const Lambda *n) override {
      ++depth;
      Visitor::visit(n);
      --depth;
    }
    void visit(const Var *n) override { left |= depth > 0 && arrays->count(n->name) > 0; }
  } left;
  left.arrays = &arrays;
  for (auto &[name, value] : dropped) left.visitExpr(value);
  if (left.left) return false;
  lets = std::move(dropped);
  return true;
}

} // namespace unfad::ad::rev
