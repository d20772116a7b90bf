// An array resized before anything else touches it is allocated at that
// size, where the resize was (a fresh array is zeros, and so is what a
// resize adds to it):
//   let a = new[m] in (lets not naming a but size(a)) let _ = resize a to n in body
//     ~>  (the lets, size(a) read as m) let a = new[n] in body
// (a default-constructed matrix sized by the helper it is given,
// `Mat tmp; mat_mult(x, y, &tmp);`, or one made at the size the helper
// gives it again, and their cotangent buffers: one `std::vector<double>
// tmp(n)` instead of a vector resized.)
#include "support.h"
#include "unfad/opt/passes.h"
#include "unfad/ir/traverse.h"

namespace unfad::opt {

using namespace unfad::ir;

namespace {

bool zeroedAllocation(const Expr &v) {
  auto a = v->as<NewArray>();
  return a && !a->scratch;
}

class SizedAllocations : public BlockRewriter {
protected:
  void chain(Lets &lets, Expr &) override {
    for (size_t j = 0; j < lets.size(); ++j) {
      if (!zeroedAllocation(lets[j].second)) continue;
      const std::string &a = lets[j].first;
      const Expr &allocated = lets[j].second->as<NewArray>()->size;
      // (its size read before the resize is the allocation's: the J^T's
      // old size)
      std::vector<size_t> sizeReads;
      size_t k = j + 1;
      for (; k < lets.size(); ++k) {
        auto z = lets[k].second->as<ir::Size>();
        auto v = z ? z->array->as<Var>() : nullptr;
        if (v && v->name == a) sizeReads.push_back(k);
        else if (countUses(lets[k].second, a) != 0) break;
      }
      if (k == lets.size()) continue;
      auto r = lets[k].second->as<Resize>();
      auto target = r ? r->array->as<Var>() : nullptr;
      if (!target || target->name != a || countUses(r->size, a) != 0) continue;
      for (size_t q : sizeReads) lets[q].second = allocated;
      lets[k] = {a, NewArray::make(r->size, lets[j].second->type->elem())};
      lets.erase(lets.begin() + long(j));
      --j;
      changed = true;
    }
  }
};

} // namespace

Expr sizedAllocations(const Expr &e, const PassContext &, bool *changed) {
  SizedAllocations pass;
  Expr r = pass.rewrite(e);
  if (changed) *changed = pass.changed;
  return r;
}

} // namespace unfad::opt
