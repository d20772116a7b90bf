// Dead and idle stores within one block (a local array's element saved,
// overwritten by a recomputation and put back, with nothing reading it in
// between):
//   a[i] = x; ...; a[i] = y        ~>  ...; a[i] = y     (nothing between mentions a; also a[i] += x)
//   let v = a[i]; ...; a[i] = v    ~>  let v = a[i]; ...  (nothing between writes a)
//   a[i] = v; ...; a[i] = v        ~>  a[i] = v; ...      (nothing between writes memory)
//   s[k] = a[k] for k; ...; a[k] = s[k] for k  ~>  s[k] = a[k] for k; ...
//                                                 (nothing between writes a or s)
#include "support.h"
#include "unfad/opt/passes.h"
#include "unfad/ir/equal.h"

#include <algorithm>
#include <optional>

namespace unfad::opt {

using namespace unfad::ir;

namespace {

class DeadStores : public BlockRewriter {
protected:
  void chain(Lets &lets, Expr &) override {
    for (size_t k = 0; k < lets.size();) {
      auto st = lets[k].second->as<Store>();
      auto a = st ? st->array->as<Var>() : nullptr;
      // (a `+=` overwritten is as dead as an `=`: the element it read and
      // rewrote is replaced; a recomputed in-place update, then put back)
      if ((a && (overwritten(lets, k, a->name) ||
                 (st->mode == Store::Mode::Set && (idle(lets, k, a->name) || repeated(lets, k, a->name))))) ||
          idleRestore(lets, k)) {
        lets.erase(lets.begin() + long(k));
        changed = true;
        k = 0; // a removed store may make an earlier one dead
        continue;
      }
      ++k;
    }
  }

private:
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
};

} // namespace

Expr deadStores(const Expr &e, const PassContext &, bool *changed) {
  DeadStores stores;
  Expr r = stores.rewrite(e);
  if (changed) *changed = stores.changed;
  return r;
}

} // namespace unfad::opt
