// Dead code elimination: drops lets whose variable is never used and that
// write nothing, and stores into local arrays nothing reads. Names are
// unique, so one use count per name suffices. At the function's top level,
// a let that only writes local arrays nothing after it reads is dropped too:
// the reverse sweep puts local arrays back as the forward sweep found them
// (copies saved before a loop, restored after its J^T; a resize undone),
// which matters to an enclosing recomputation but not at the end of the
// function, where the locals die. So is one in any block that only writes
// arrays the block allocates, which die at its end (a loop body's J^T
// putting back the size of the matrix the iteration made).
#include "support.h"
#include "unfad/opt/passes.h"
#include "unfad/ir/mutator.h"
#include "unfad/ir/effects.h"

#include <unordered_map>

namespace unfad::opt {

using namespace unfad::ir;

namespace {

class DeadCode {
public:
  Expr run(const Expr &e) {
    findWriteOnlyArrays(e);
    root_ = e.get();
    findEscapes(e);
    return sweep(e);
  }

private:
  std::unordered_map<std::string, int> uses_;
  std::unordered_set<std::string> writeOnly_; // local arrays nothing reads: their stores are dead
  std::unordered_set<std::string> local_;     // every local array (a let of NewArray)
  const Node *root_ = nullptr;                // the function's body: its top-level chain
  // Local arrays used other than indexed or stored to (aliased by a view or
  // a let, given to a call): their reads are not all reads of their name.
  std::unordered_set<std::string> escaped_;

  void findEscapes(const Expr &root) {
    struct Escapes : Visitor {
      std::unordered_set<std::string> *out;
      void visit(const Var *n) override { out->insert(n->name); }
      void visit(const Index *n) override {
        if (!n->array->is<Var>()) visitExpr(n->array);
        visitExpr(n->index);
      }
      void visit(const Store *n) override {
        if (!n->array->is<Var>()) visitExpr(n->array);
        visitExpr(n->index);
        visitExpr(n->value);
      }
      void visit(const Resize *n) override { visitExpr(n->size); } // (neither aliases nor reads)
      void visit(const ir::Size *n) override {
        if (!n->array->is<Var>()) visitExpr(n->array);
      }
    } escapes;
    escapes.out = &escaped_;
    escapes.visitExpr(root);
  }

  // Names `e` reads: its free variables, but an array only stored to.
  static void readsOf(const Expr &e, std::unordered_set<std::string> &out) {
    struct Reads : Visitor {
      std::unordered_set<std::string> *out;
      void visit(const Var *n) override { out->insert(n->name); }
      void visit(const Store *n) override { // (a[i] += v reads a)
        if (!n->array->is<Var>() || n->mode == Store::Mode::Add) visitExpr(n->array);
        visitExpr(n->index);
        visitExpr(n->value);
      }
      void visit(const Resize *n) override { visitExpr(n->size); }
    } reads;
    reads.out = &out;
    reads.visitExpr(e);
  }

  // A let whose only effect is writing local arrays that nothing after it
  // reads (`readLater`): at the top level any local array, in a block the
  // arrays that block allocates (`dying`: they end with it, as a loop
  // body's buffer ends with its iteration).
  // A resize stays while anything after it writes the array: a later
  // store may reach past the old size (a helper's stores kept because its
  // result is used, into an object whose values nothing reads).
  bool deadAtEnd(const Let &l, const std::unordered_set<std::string> &readLater,
                 const std::unordered_set<std::string> &writtenLater, const std::unordered_set<std::string> *dying) {
    if (uses_[l.name] != 0) return false;
    MemoryEffects fx = memoryEffects(l.value);
    if (fx.calls || fx.allocates || !fx.writesMemory || fx.writes.empty()) return false;
    for (auto &a : fx.writes)
      if (!local_.count(a) || escaped_.count(a) || readLater.count(a) || (dying && !dying->count(a))) return false;
    for (const Expr &a : resizedArrays(l.value))
      if (const auto *v = a->as<Var>(); !v || writtenLater.count(v->name)) return false;
    // (every write is to a named array: a store through another expression
    // would leave `writes` short of `writesMemory`)
    struct Targets : Visitor {
      bool named = true;
      void visit(const Store *n) override {
        named &= n->array->is<Var>();
        Visitor::visit(n);
      }
      void visit(const Pullback *) override { named = false; }
    } targets;
    targets.visitExpr(l.value);
    return targets.named;
  }

  void findWriteOnlyArrays(const Expr &root) {
    struct Accesses : Visitor {
      std::unordered_set<std::string> local, read;
      void visit(const Let *n) override {
        if (n->value->is<NewArray>()) local.insert(n->name);
        Visitor::visit(n);
      }
      void visit(const Var *n) override { read.insert(n->name); }
      void visit(const Store *n) override { // the target of a store is not a read
        if (!n->array->is<Var>()) visitExpr(n->array);
        visitExpr(n->index);
        visitExpr(n->value);
      }
      void visit(const Resize *n) override { visitExpr(n->size); } // (nor of a resize)
    } accesses;
    accesses.visitExpr(root);
    for (auto &n : accesses.local)
      if (!accesses.read.count(n)) writeOnly_.insert(n);
    local_ = accesses.local;
  }

  bool deadStore(const Expr &v) const {
    auto st = v->as<Store>();
    auto rs = v->as<Resize>();
    auto arr = st ? st->array->as<Var>() : rs ? rs->array->as<Var>() : nullptr;
    return arr && writeOnly_.count(arr->name);
  }

  // Bottom-up: a let's uses are all counted (they follow it) before it is
  // kept or dropped.
  Expr sweepChain(const Expr &e) {
    const bool top = e.get() == root_;
    std::vector<const Let *> chain;
    Expr c = e;
    while (auto l = c->as<Let>()) {
      chain.push_back(l);
      c = l->body;
    }
    Expr body = sweep(c);
    std::unordered_set<std::string> readLater, writtenLater, dying;
    for (const Let *l : chain)
      if (l->value->is<NewArray>()) dying.insert(l->name);
    const bool tracked = top || !dying.empty();
    auto writes = [&](const Expr &x) {
      for (auto &a : memoryEffects(x).writes) writtenLater.insert(a);
    };
    if (tracked) readsOf(c, readLater), writes(c);
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
      const Expr &v = (*it)->value;
      if (deadStore(v)) continue;
      if (uses_[(*it)->name] == 0 && !mayWrite(v)) continue;
      if (tracked && deadAtEnd(**it, readLater, writtenLater, top ? nullptr : &dying)) continue;
      if (tracked) readsOf(v, readLater), writes(v);
      body = Let::make((*it)->name, sweep(v), body);
    }
    return body;
  }

  Expr sweep(const Expr &e) {
    if (e->is<Let>()) return sweepChain(e);
    if (auto f = e->as<Fold>()) {
      Expr b = sweep(f->body), i0 = sweep(f->init), l = sweep(f->lo), h = sweep(f->hi);
      return b == f->body && i0 == f->init && l == f->lo && h == f->hi ? e
                                                                       : Fold::make(l, h, i0, f->index, f->state, b, f->reversed);
    }
    if (auto w = e->as<While>()) {
      Expr b = sweep(w->body), c = sweep(w->cond), i0 = sweep(w->init);
      return b == w->body && c == w->cond && i0 == w->init ? e : While::make(i0, w->state, c, b);
    }
    if (auto t = e->as<ir::Tuple>()) {
      bool changed = false;
      std::vector<Expr> es;
      for (auto &x : t->elems) {
        es.push_back(sweep(x));
        changed |= es.back() != x;
      }
      if (!changed) return e;
      return t->type->isStruct() ? ir::Tuple::makeStruct(t->type, es) : ir::Tuple::make(es);
    }
    if (auto i = e->as<If>()) {
      Expr t = sweep(i->thenE), f = sweep(i->elseE), c = sweep(i->cond);
      return t == i->thenE && f == i->elseE && c == i->cond ? e : If::make(c, t, f);
    }
    // Leaves and flat expressions: count their variables.
    for (auto &v : freeVars(e)) ++uses_[v];
    return e;
  }
};

} // namespace

Expr deadCode(const Expr &e, const PassContext &, bool *changed) {
  Expr r = DeadCode().run(e);
  if (changed) *changed = r != e;
  return r;
}

} // namespace unfad::opt
