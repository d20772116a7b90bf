// An array allocated empty and sized by a resize before anything else
// touches it is allocated at that size, where the resize was:
//   let a = new[0] in (lets not naming a) let _ = resize a to n in body
//     ~>  (lets not naming a) let a = new[n] in body
// (a default-constructed matrix sized by the helper it is given,
// `Mat tmp; mat_mult(x, y, &tmp);`, and its cotangent buffer: one
// `std::vector<double> tmp(n)` instead of an empty vector resized.)
#include "support.h"
#include "unfad/opt/passes.h"
#include "unfad/ir/traverse.h"

namespace unfad::opt {

using namespace unfad::ir;

namespace {

bool emptyAllocation(const Expr &v) {
  auto a = v->as<NewArray>();
  auto zero = a ? a->size->as<Const>() : nullptr;
  return zero && zero->ivalue == 0 && !a->scratch;
}

class SizedAllocations : public BlockRewriter {
protected:
  void chain(Lets &lets, Expr &body) override {
    for (size_t j = 0; j < lets.size(); ++j) {
      if (!emptyAllocation(lets[j].second)) continue;
      const std::string &a = lets[j].first;
      size_t k = j + 1;
      while (k < lets.size() && countUses(lets[k].second, a) == 0) ++k;
      if (k == lets.size()) continue;
      auto r = lets[k].second->as<Resize>();
      auto target = r ? r->array->as<Var>() : nullptr;
      if (!target || target->name != a || countUses(r->size, a) != 0) continue;
      lets[k] = {a, NewArray::make(r->size, lets[j].second->type->elem())};
      lets.erase(lets.begin() + long(j));
      --j;
      changed = true;
    }
    (void)body;
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
