// Dead and idle stores within one block (a local array's element saved,
// overwritten by a recomputation and put back, with nothing reading it in
// between):
//   a[i] = x; ...; a[i] = y        ~>  ...; a[i] = y     (nothing between mentions a)
//   let v = a[i]; ...; a[i] = v    ~>  let v = a[i]; ...  (nothing between writes a)
#include "support.h"
#include "unfad/opt/passes.h"
#include "unfad/ir/equal.h"

#include <algorithm>

namespace unfad::opt {

using namespace unfad::ir;

namespace {

class DeadStores : public BlockRewriter {
protected:
  void chain(Lets &lets, Expr &) override {
    for (size_t k = 0; k < lets.size();) {
      auto st = lets[k].second->as<Store>();
      auto a = st ? st->array->as<Var>() : nullptr;
      if (a && st->mode == Store::Mode::Set && (overwritten(lets, k, a->name) || idle(lets, k, a->name))) {
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
};

} // namespace

Expr deadStores(const Expr &e, const PassContext &, bool *changed) {
  DeadStores stores;
  Expr r = stores.rewrite(e);
  if (changed) *changed = stores.changed;
  return r;
}

} // namespace unfad::opt
