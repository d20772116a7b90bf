// A tape every store of which writes the same constant reads as that
// constant:
//
//   t = scratch[n]; ... t[i] = 0 ...; let k = t[j]  ~>  let k = 0
//
// The undo log of a non-const method's `*this` (a one-element array)
// records the element it overwrote, always 0; restoring `this[k]` with k
// read from that log left the printer an index it cannot write for a
// reference (`(*this)[k]`). Sound for scratch buffers only: they are
// never read before they are written, so every read finds a stored value.
// The index stores, then write-only, go with dead-code.
#include "support.h"
#include "unfad/opt/passes.h"
#include "unfad/ir/equal.h"
#include "unfad/ir/mutator.h"

#include <unordered_map>

namespace unfad::opt {

using namespace unfad::ir;

namespace {

// Scratch arrays and the one constant all their stores write (null: none
// yet; erased when a store writes anything else, or the array is used in
// any other way than as the array of an index or a store).
class ConstantStores : public ArrayUses {
public:
  std::unordered_map<std::string, Expr> constant;

  void run(const Expr &root) {
    visitExpr(root);
    for (auto &n : spoiled) constant.erase(n);
    for (auto it = constant.begin(); it != constant.end();) it = it->second ? std::next(it) : constant.erase(it);
  }

protected:
  void visit(const Let *n) override {
    if (auto a = n->value->as<NewArray>(); a && a->scratch && !a->type->elem()->isTuple()) constant.emplace(n->name, nullptr);
    Visitor::visit(n);
  }
  void onStore(const Store *n, const std::string &array) override {
    auto c = n->value->as<Const>();
    auto it = constant.find(array);
    if (it == constant.end()) return;
    if (!c || n->mode != Store::Mode::Set || !n->path.empty()) spoiled.insert(array);
    else if (!it->second) it->second = n->value;
    else if (!alphaEqual(n->value, it->second)) spoiled.insert(array);
  }
};

class ReadsAsConstant : public Mutator {
public:
  explicit ReadsAsConstant(const std::unordered_map<std::string, Expr> &constant) : constant_(constant) {}
  bool changed = false;

protected:
  Expr visit(const ir::Index *n, const Expr &self) override {
    if (auto a = n->array->as<Var>())
      if (auto it = constant_.find(a->name); it != constant_.end()) {
        changed = true;
        return it->second;
      }
    return Mutator::visit(n, self);
  }

private:
  const std::unordered_map<std::string, Expr> &constant_;
};

} // namespace

Expr constantTapes(const Expr &e, const PassContext &, bool *changed) {
  ConstantStores stores;
  stores.run(e);
  if (changed) *changed = false;
  if (stores.constant.empty()) return e;
  ReadsAsConstant reads(stores.constant);
  Expr r = reads.mutate(e);
  if (changed) *changed = reads.changed;
  return r;
}

} // namespace unfad::opt
