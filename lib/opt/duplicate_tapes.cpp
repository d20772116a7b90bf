// Two tapes that hold the same values are one:
//
//   a = scratch[n]; b = scratch[n]; ... a[i] = v; b[i] = v ...; b[j]
//     ~>  a = scratch[n]; ... a[i] = v ...; a[j]
//
// when each is stored to once, at the same index with the same value, in
// the same block, and is used only by that store and by reads. A value the
// source reads twice (a cell's input in two gates) is captured twice by the
// forward sweep; CSE makes the two reads one, and the two tapes then carry
// the same stream: one load and one store per iteration and a buffer saved.
// Sound for scratch buffers only: they are read only where written.
#include "support.h"
#include "unfad/ir/equal.h"
#include "unfad/ir/mutator.h"
#include "unfad/opt/passes.h"

#include <algorithm>
#include <map>
#include <unordered_map>

namespace unfad::opt {

using namespace unfad::ir;

namespace {

struct Tape {
  Expr size;
  TypeP type;
  int chain = 0, position = 0; // where it is allocated
  int stores = 0;
  const Store *store = nullptr;
};

// Scratch tapes, where they are allocated, and their stores.
class FindTapes : public ArrayUses {
public:
  std::unordered_map<std::string, Tape> tapes;
  std::unordered_map<const Store *, int> storeChain; // the block each store is in

  void visitExpr(const Expr &e) override {
    if (!e->is<Let>()) return Visitor::visitExpr(e);
    const int chain = ++chains_;
    LetChain c = unzipLets(e);
    for (size_t k = 0; k < c.lets.size(); ++k) {
      auto &[name, value] = c.lets[k];
      if (auto a = value->as<NewArray>(); a && a->scratch) tapes[name] = Tape{a->size, a->type, chain, int(k)};
      if (auto s = value->as<Store>()) storeChain[s] = chain;
      visitExpr(value);
    }
    visitExpr(c.tail);
  }

protected:
  void onStore(const Store *n, const std::string &array) override {
    auto it = tapes.find(array);
    if (it == tapes.end()) return;
    ++it->second.stores;
    it->second.store = n;
    if (n->mode != Store::Mode::Set || !n->path.empty()) spoiled.insert(array);
  }

private:
  int chains_ = 0;
};

// The same element of the same stream: same index and value, neither
// reading memory (so both stores see the same values).
bool sameStream(const Store &a, const Store &b) {
  return isAtom(a.value) && alphaEqual(a.value, b.value) && alphaEqual(a.index, b.index) &&
         !memoryEffects(a.index).readsMemory;
}

class Merge : public Mutator {
public:
  std::unordered_map<std::string, std::string> into; // dropped tape -> the one kept
  std::unordered_set<const Store *> droppedStores;

protected:
  Expr visit(const Let *n, const Expr &self) override {
    if (auto s = n->value->as<Store>(); s && droppedStores.count(s)) return mutate(n->body);
    if (auto it = into.find(n->name); it != into.end()) // (the stores dropped first: they are found by node)
      return substitute(mutate(n->body), n->name, Var::make(it->second, n->value->type));
    return Mutator::visit(n, self);
  }
};

} // namespace

Expr duplicateTapes(const Expr &e, const PassContext &, bool *changed) {
  if (changed) *changed = false;
  FindTapes find;
  find.visitExpr(e);
  // Tapes stored once, grouped by the block of their store.
  std::map<int, std::vector<std::string>> byBlock;
  for (auto &[name, t] : find.tapes)
    if (!find.spoiled.count(name) && t.stores == 1) byBlock[find.storeChain[t.store]].push_back(name);
  Merge merge;
  for (auto &[block, names] : byBlock) {
    std::sort(names.begin(), names.end(), [&](auto &a, auto &b) { return find.tapes[a].position < find.tapes[b].position; });
    for (size_t j = 0; j < names.size(); ++j) {
      const Tape &kept = find.tapes[names[j]];
      if (merge.into.count(names[j])) continue;
      for (size_t k = j + 1; k < names.size(); ++k) {
        const Tape &other = find.tapes[names[k]];
        if (merge.into.count(names[k]) || other.chain != kept.chain || !sameType(other.type, kept.type) ||
            !alphaEqual(other.size, kept.size) || !sameStream(*kept.store, *other.store))
          continue;
        merge.into[names[k]] = names[j];
        merge.droppedStores.insert(other.store);
      }
    }
  }
  if (merge.into.empty()) return e;
  if (changed) *changed = true;
  return merge.mutate(e);
}

} // namespace unfad::opt
