// A struct cotangent added into an element of an adjoint array, one field
// at a time, the fields known to be 0 skipped:
//   a[i] += Vec3{0, y, 0}  ~>  a[i].y += y
// (then `+=` updates of the same field merge, like scalars')
#include "support.h"
#include "unfad/opt/passes.h"

namespace unfad::opt {

using namespace unfad::ir;

namespace {

class SplitStructAdds : public BlockRewriter {
protected:
  void chain(Lets &lets, Expr &) override {
    Lets out;
    for (auto &l : lets) {
      auto st = l.second->as<Store>();
      if (!st || st->mode != Store::Mode::Add || !st->value->is<ir::Tuple>() || !st->value->type->isStruct()) {
        out.push_back(l);
        continue;
      }
      changed = true;
      split(st, st->value, st->path, l.first, out);
    }
    lets = std::move(out);
  }

private:
  static void split(const Store *st, const Expr &v, std::vector<int> path, const std::string &name, Lets &out) {
    if (auto c = v->as<Const>(); c && c->isZero()) return;
    auto t = v->as<ir::Tuple>();
    if (!t || !v->type->isStruct()) {
      if (v->type->isFloat() || v->type->isStruct()) out.push_back({name, Store::make(st->array, st->index, v, Store::Mode::Add, path)});
      return; // passive fields carry no cotangent
    }
    for (int k = 0; k < int(t->elems.size()); ++k) {
      path.push_back(k);
      split(st, t->elems[size_t(k)], path, name, out);
      path.pop_back();
    }
  }
};

} // namespace

Expr splitStructAdds(const Expr &e, const PassContext &, bool *changed) {
  SplitStructAdds adds;
  Expr r = adds.rewrite(e);
  if (changed) *changed = adds.changed;
  return r;
}

} // namespace unfad::opt
