// What an expression does to memory (effects.h), and the two questions most
// passes ask of it.
#include "unfad/ir/effects.h"
#include "unfad/ir/mutator.h"

#include <unordered_set>

namespace unfad::ir {

namespace {

struct EffectsScan : Visitor {
  MemoryEffects fx;
  const Program *program = nullptr;
  std::unordered_set<std::string> calleesSeen; // each callee's body is scanned once

  void addRead(const Expr &a) {
    fx.readsMemory = true;
    if (auto v = rootArray(a)->as<Var>()) fx.reads.insert(v->name); // a view reads its array
  }
  void addWrite(const Expr &a) {
    fx.writesMemory = true;
    if (auto v = storageArray(a)->as<Var>()) fx.writes.insert(v->name); // a row writes its table
  }
  void visit(const Index *n) override {
    addRead(n->array);
    Visitor::visit(n);
  }
  void visit(const Store *n) override {
    fx.stores = true;
    addWrite(n->array);
    visitExpr(n->index); // the array itself is not read by a store
    visitExpr(n->value);
  }
  void visit(const Throw *) override { raise(); }
  // (printing: kept, in order, never speculated or duplicated, like a throw)
  void visit(const Effect *n) override {
    raise();
    fx.prints = true;
    Visitor::visit(n);
  }
  void visit(const Resize *n) override {
    fx.stores = true;
    addWrite(n->array);
    visitExpr(n->size);
  }
  void raise() {
    fx.raises = true;
    fx.stores = true;
    fx.writesMemory = true;
  }
  void visit(const NewArray *n) override {
    fx.allocates = true;
    Visitor::visit(n);
  }
  void visit(const Pullback *n) override {
    for (auto &a : n->args)
      if (a->type->isArray()) addRead(a);
    // It accumulates into the caller's buffers, so it reads them too (a
    // pullback of a function writing an output also consumes the output's
    // cotangent there): stores into a buffer before it are live.
    for (auto &b : n->buffers) {
      addRead(b);
      addWrite(b);
    }
    fx.stores |= !n->buffers.empty();
    Visitor::visit(n);
  }
  void visit(const Call *n) override {
    fx.calls = true;
    const Function *callee = program ? program->find(n->callee) : nullptr;
    for (size_t k = 0; k < n->args.size(); ++k) {
      if (!n->args[k]->type->isArray()) continue;
      addRead(n->args[k]);
      // The callee's summary (Param::written) says which arrays it writes.
      if (!callee || callee->params.at(k).written) addWrite(n->args[k]);
    }
    Visitor::visit(n);
    if (!callee || !calleesSeen.insert(n->callee).second) return;
    if (auto f = callee) {
      // Only whether the callee stores at all carries over: its reads and
      // writes are of its own parameters' names.
      EffectsScan inner;
      inner.program = program;
      inner.calleesSeen = calleesSeen;
      inner.visitExpr(f->body);
      fx.stores |= inner.fx.stores;
      if (inner.fx.raises) raise();
      fx.prints |= inner.fx.prints;
      fx.allocates |= inner.fx.allocates;
      calleesSeen.insert(inner.calleesSeen.begin(), inner.calleesSeen.end());
    }
  }
};

} // namespace

bool MemoryEffects::clobbers(const MemoryEffects &reader) const {
  for (auto &a : reader.reads)
    if (writes.count(a)) return true;
  return false;
}

MemoryEffects memoryEffects(const Expr &e, const Program *p) {
  EffectsScan scan;
  scan.program = p;
  scan.visitExpr(e);
  return scan.fx;
}

bool hasEffects(const Expr &e, const Program *p) { return memoryEffects(e, p).stores; }

bool mayWrite(const Expr &e) { return memoryEffects(e).writesMemory; }

std::vector<Expr> resizedArrays(const Expr &e) {
  struct Find : Visitor {
    std::vector<Expr> arrays;
    void visit(const Resize *n) override {
      arrays.push_back(n->array);
      Visitor::visit(n);
    }
  } find;
  find.visitExpr(e);
  return find.arrays;
}

} // namespace unfad::ir
