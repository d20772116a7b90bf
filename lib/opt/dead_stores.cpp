// Dead and idle stores within one block (a local array's element saved,
// overwritten by a recomputation and put back, with nothing reading it in
// between):
//   a[i] = x; ...; a[i] = y        ~>  ...; a[i] = y     (nothing between mentions a; also a[i] += x)
//   let v = a[i]; ...; a[i] = v    ~>  let v = a[i]; ...  (nothing between writes a)
//   a[i] = v; ...; a[i] = v        ~>  a[i] = v; ...      (nothing between writes memory)
//   s[k] = a[k] for k; ...; a[k] = s[k] for k  ~>  s[k] = a[k] for k; ...
//                                                 (nothing between writes a or s)
//   b[c] = v(c), t[c] = w for c; ...; b[c] = v(c) with t[c] for w, for c
//                                              ~>  b[c] = v(c), t[c] = w for c; ...
//                                                 (nothing between writes b, t or what v reads)
#include "support.h"
#include "unfad/opt/passes.h"
#include "unfad/ir/equal.h"

#include <algorithm>
#include <optional>
#include <set>
#include <unordered_map>

namespace unfad::opt {

using namespace unfad::ir;

namespace {

class DeadStores : public BlockRewriter {
public:
  explicit DeadStores(const PassContext &context) : context_(context) {}

protected:
  void chain(Lets &lets, Expr &) override {
    for (size_t k = 0; k < lets.size();) {
      auto st = lets[k].second->as<Store>();
      auto a = st ? st->array->as<Var>() : nullptr;
      // (a `+=` overwritten is as dead as an `=`: the element it read and
      // rewrote is replaced; a recomputed in-place update, then put back)
      if ((a && (overwritten(lets, k, a->name) ||
                 (st->mode == Store::Mode::Set && (idle(lets, k, a->name) || repeated(lets, k, a->name))))) ||
          idleRestore(lets, k) || idleStoreLoop(lets, k)) {
        lets.erase(lets.begin() + long(k));
        changed = true;
        k = 0; // a removed store may make an earlier one dead
        continue;
      }
      ++k;
    }
  }

private:
  const PassContext &context_;

  static bool overwritten(const Lets &lets, size_t k, const std::string &a) {
    auto st = lets[k].second->as<Store>();
    for (size_t m = k + 1; m < lets.size(); ++m) {
      const Expr &v = lets[m].second;
      if (countUses(v, a) == 0) continue;
      auto next = v->as<Store>();
      return next && next->mode == Store::Mode::Set && next->array->is<Var>() && countUses(next->index, a) == 0 &&
             countUses(next->value, a) == 0 && alphaEqual(next->index, st->index) &&
             // a[i].p = x; a[i].q = y: q covers p when q is a prefix of p
             next->path.size() <= st->path.size() && std::equal(next->path.begin(), next->path.end(), st->path.begin());
    }
    return false; // what follows the block may read it
  }

  static bool idle(const Lets &lets, size_t k, const std::string &a) {
    auto st = lets[k].second->as<Store>();
    auto v = st->value->as<Var>();
    if (!v || !st->path.empty()) return false;
    for (size_t p = k; p-- > 0;) {
      if (lets[p].first == v->name) {
        auto read = lets[p].second->as<ir::Index>();
        return read && read->array->is<Var>() && read->array->as<Var>()->name == a && alphaEqual(read->index, st->index);
      }
      MemoryEffects between = memoryEffects(lets[p].second);
      if (between.writes.count(a) || between.calls) return false;
    }
    return false;
  }
  // a[i] = v; ...; a[i] = v with nothing between writing a: the second
  // store finds the value there (i and v read no memory).
  static bool repeated(const Lets &lets, size_t k, const std::string &a) {
    auto st = lets[k].second->as<Store>();
    if (memoryEffects(st->index).readsMemory || memoryEffects(st->value).readsMemory) return false;
    for (size_t p = k; p-- > 0;) {
      auto earlier = lets[p].second->as<Store>();
      if (earlier && earlier->mode == Store::Mode::Set && earlier->array->is<Var>() &&
          earlier->array->as<Var>()->name == a && earlier->path == st->path &&
          alphaEqual(earlier->index, st->index) && alphaEqual(earlier->value, st->value))
        return true;
      MemoryEffects between = memoryEffects(lets[p].second);
      if (between.writes.count(a) || between.calls) return false;
    }
    return false;
  }

  // A copy loop `for k in [lo, hi): dst[k] = src[k]`: dst, src, lo, hi.
  struct Copy {
    std::string dst, src;
    Expr lo, hi;
  };
  static std::optional<Copy> copyLoop(const Expr &e) {
    auto f = e->as<Fold>();
    auto l = f ? f->body->as<Let>() : nullptr;
    auto st = l ? l->value->as<Store>() : nullptr;
    auto rd = st ? st->value->as<ir::Index>() : nullptr;
    if (!rd || st->mode != Store::Mode::Set || !st->path.empty() || !st->array->is<Var>() || !rd->array->is<Var>() ||
        !isLoopIndex(st->index, f->index) || !isLoopIndex(rd->index, f->index) || !f->init->type->isTuple() ||
        !f->init->type->elems.empty() || countUses(l->body, f->index) != 0 || memoryEffects(f->lo).readsMemory ||
        memoryEffects(f->hi).readsMemory)
      return std::nullopt;
    return Copy{st->array->as<Var>()->name, rd->array->as<Var>()->name, f->lo, f->hi};
  }
  // saved = a (a copy loop); ...; a = saved over the same range, with
  // nothing between writing a or saved: a holds what it is given back (the
  // snapshot around a recomputed call whose primal the optimiser removed).
  static bool idleRestore(const Lets &lets, size_t k) {
    auto back = copyLoop(lets[k].second);
    if (!back) return false;
    for (size_t p = k; p-- > 0;) {
      auto save = copyLoop(lets[p].second);
      if (save && save->dst == back->src && save->src == back->dst && alphaEqual(save->lo, back->lo) &&
          alphaEqual(save->hi, back->hi))
        return true;
      MemoryEffects between = memoryEffects(lets[p].second);
      if (between.writes.count(back->dst) || between.writes.count(back->src) || between.calls) return false;
    }
    return false;
  }

  // A loop over [lo, hi) storing b[c] = v at its own index c, its only
  // effect: its top-level lets (pure values and reads) substituted into v.
  struct StoreLoop {
    const Fold *loop;
    std::string array;
    Expr value;
  };
  // The values of a loop body's top-level lets that are expressions (not
  // loops, calls or branches), to substitute into what it stores.
  static Expr resolved(Expr e, const LetChain &body) {
    for (auto it = body.lets.rbegin(); it != body.lets.rend(); ++it) {
      const Expr &v = it->second;
      if ((v->is<Prim>() || v->is<ir::Index>() || v->is<Var>() || v->is<Const>() || v->is<Proj>()) &&
          countUses(e, it->first) > 0)
        e = substitute(e, it->first, v);
    }
    return e;
  }
  // The stores b[c] = v of a loop's top level at its own index, once each:
  // array -> v resolved (null for an array stored more than once or
  // otherwise).
  static std::unordered_map<std::string, Expr> ownStores(const Fold &f, const LetChain &body) {
    std::unordered_map<std::string, Expr> stores;
    std::set<std::string> spoiled;
    for (auto &[name, v] : body.lets) {
      auto st = v->as<Store>();
      auto a = st ? st->array->as<Var>() : nullptr;
      if (a && st->mode == Store::Mode::Set && st->path.empty() && isLoopIndex(st->index, f.index) &&
          !stores.count(a->name))
        stores[a->name] = resolved(st->value, body);
      else
        for (auto &w : memoryEffects(v).writes) spoiled.insert(w);
    }
    for (auto &a : spoiled) stores.erase(a);
    return stores;
  }
  static std::optional<StoreLoop> storeLoop(const Expr &e) {
    auto f = e->as<Fold>();
    if (!f || !f->init->type->isTuple() || !f->init->type->elems.empty() || memoryEffects(f->lo).readsMemory ||
        memoryEffects(f->hi).readsMemory)
      return std::nullopt;
    LetChain body = unzipLets(f->body);
    std::optional<StoreLoop> found;
    for (auto &[name, v] : body.lets) {
      MemoryEffects fx = memoryEffects(v);
      if (!fx.stores && !fx.writesMemory && !fx.calls && !fx.allocates && !fx.raises) continue;
      auto st = v->as<Store>();
      auto a = st ? st->array->as<Var>() : nullptr;
      if (found || !a || st->mode != Store::Mode::Set || !st->path.empty() || !isLoopIndex(st->index, f->index) ||
          memoryEffects(st->value).stores)
        return std::nullopt;
      found = StoreLoop{f, a->name, resolved(st->value, body)};
    }
    if (!found || memoryEffects(body.tail).readsMemory) return std::nullopt;
    for (auto &[name, v] : body.lets)
      if (countUses(found->value, name) > 0) return std::nullopt; // (a value of its own loops)
    return found;
  }
  // A store loop writing what an earlier loop over the same range stored
  // at each index: the recomputation of a per-point loop's scores before
  // their pullback reads them (the forward loop taped t[c] = w, the
  // recomputation reads t[c] back into the same expression). Nothing
  // between, nor the earlier loop, writes what the value reads.
  bool idleStoreLoop(const Lets &lets, size_t k) const {
    auto again = storeLoop(lets[k].second);
    if (!again) return false;
    std::set<std::string> written; // by the lets between
    for (size_t p = k; p-- > 0;) {
      auto f = lets[p].second->as<Fold>();
      if (f && alphaEqual(f->lo, again->loop->lo) && alphaEqual(f->hi, again->loop->hi)) {
        LetChain body = unzipLets(f->body);
        auto stores = ownStores(*f, body);
        if (auto first = stores.find(again->array); first != stores.end()) {
          // v as the earlier loop computes it: its index, and its tapes' reads as what they hold
          struct Taped : Mutator {
            const std::unordered_map<std::string, Expr> *stores;
            std::string index;
            Expr visit(const ir::Index *n, const Expr &self) override {
              auto a = n->array->as<Var>();
              auto i = n->index->as<Var>();
              if (a && i && i->name == index)
                if (auto it = stores->find(a->name); it != stores->end()) return it->second;
              return mutateChildren(self);
            }
          } taped;
          taped.stores = &stores;
          taped.index = f->index;
          const Expr value = taped.mutate(substitute(again->value, again->loop->index, Var::make(f->index, Type::i64())));
          MemoryEffects loopFx = memoryEffects(lets[p].second), valueFx = memoryEffects(value);
          // (the tapes it read back: stored once at each index, so only the between lets may spoil them)
          MemoryEffects readFx = memoryEffects(again->value);
          bool clean = !written.count(again->array) && !valueFx.stores && !valueFx.calls;
          for (auto &a : valueFx.reads) clean = clean && !loopFx.writes.count(a) && !written.count(a);
          for (auto &a : readFx.reads) clean = clean && !written.count(a);
          return clean && alphaEqual(value, first->second);
        }
      }
      MemoryEffects fx = effectsKnowingCallees(lets[p].second, context_);
      if (fx.raises || (fx.writesMemory && fx.writes.empty())) return false;
      written.insert(fx.writes.begin(), fx.writes.end());
      if (written.count(again->array)) return false;
    }
    return false;
  }
};

} // namespace

Expr deadStores(const Expr &e, const PassContext &context, bool *changed) {
  DeadStores stores(context);
  Expr r = stores.rewrite(e);
  if (changed) *changed = stores.changed;
  return r;
}

} // namespace unfad::opt
