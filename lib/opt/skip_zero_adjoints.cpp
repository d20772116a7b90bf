// An adjoint loop whose every contribution is scaled by one cotangent d
// from outside it runs only when d is nonzero:
//   let _ = fold j .. -> (... d_a[k] += c * d ...)  ~>  let _ = if d != 0 then fold .. else ()
// (a min over k-means centroids: only the nearest centroid's distance has a
// nonzero cotangent, so the other centroids' adjoint loops are skipped).
// Only loops without state whose effects are all `+=` of such products,
// and only for a d that selects (is a comparison's cast times something,
// or a branch's value, in the same block);
// a NaN or infinite factor times a zero d no longer reaches the buffer.
#include "support.h"
#include "unfad/ir/mutator.h"
#include "unfad/opt/passes.h"

#include <unordered_map>

namespace unfad::opt {

using namespace unfad::ir;

namespace {

struct ScaledBy {
  std::string d;
  std::unordered_map<std::string, Expr> defs; // the loop's let-bound values

  bool scaled(const Expr &e) const {
    if (auto v = e->as<Var>()) {
      if (v->name == d) return true;
      auto it = defs.find(v->name);
      return it != defs.end() && scaled(it->second);
    }
    auto p = e->as<Prim>();
    if (!p || !p->type->isFloat()) return false;
    if (p->op == Op::Mul) return scaled(p->args[0]) || scaled(p->args[1]);
    if (p->op == Op::Div || p->op == Op::Neg) return scaled(p->args[0]);
    if (p->op == Op::Add || p->op == Op::Sub) return scaled(p->args[0]) && scaled(p->args[1]);
    return false;
  }

  // Whether every effect of `e` is a += scaled by d (nested stateless loops
  // and branches included); records the let-bound values on the way.
  bool onlyScaledAdds(const Expr &e) {
    if (e->is<Let>()) {
      LetChain chain = unzipLets(e);
      for (auto &[name, value] : chain.lets) {
        if (!onlyScaledAdds(value)) return false;
        defs[name] = value;
      }
      return onlyScaledAdds(chain.tail);
    }
    if (auto s = e->as<Store>()) return s->mode == Store::Mode::Add && s->path.empty() && scaled(s->value);
    if (auto f = e->as<Fold>()) return f->init->type->isUnit() && onlyScaledAdds(f->body);
    if (auto i = e->as<If>()) return onlyScaledAdds(i->thenE) && onlyScaledAdds(i->elseE);
    // (calls, pullbacks, allocation, while loops are not looked into)
    return e->is<Const>() || e->is<Var>() || e->is<Prim>() || e->is<ir::Tuple>() || e->is<Proj>() || e->is<Index>() ||
           e->is<Size>();
  }
};

// The scalar cotangent that scales every effect of the stateless loop `f`
// (a free float variable of it), or "".
std::string scalingCotangent(const Fold &f) {
  if (!f.init->type->isUnit()) return "";
  auto frees = freeVars(f.body);
  for (auto &v : frees) {
    ScaledBy check{v, {}};
    // (d must be a float from outside: not bound in the loop)
    if (!check.onlyScaledAdds(f.body) || check.defs.count(v) || v == f.index || v == f.state) continue;
    // at least one store, and d is a float
    bool floatVar = false, stores = false;
    struct Find : Visitor {
      const std::string *name;
      bool *isFloat, *stores;
      void visit(const Var *x) override {
        if (x->name == *name && x->type->isFloat()) *isFloat = true;
      }
      void visit(const Store *s) override {
        *stores = true;
        Visitor::visit(s);
      }
    } find;
    find.name = &v;
    find.isFloat = &floatVar;
    find.stores = &stores;
    find.visitExpr(f.body);
    if (floatVar && stores) return v;
  }
  return "";
}

// Whether `e` (through the values `defs` binds) is a selection: a factor
// cast from a comparison, or a branch. Such a cotangent is often zero (a
// min, max or abs passes its cotangent to one of its arguments only); a
// loop scaled by any other cotangent runs unguarded, as written.
bool selects(const Expr &e, const std::unordered_map<std::string, Expr> &defs, int depth = 0) {
  if (depth > 8) return false;
  if (auto v = e->as<Var>()) {
    auto it = defs.find(v->name);
    return it != defs.end() && selects(it->second, defs, depth + 1);
  }
  if (e->is<If>()) return true;
  auto p = e->as<Prim>();
  if (!p) return false;
  if (p->op == Op::Cast) return p->args[0]->type->isBool();
  if (p->op == Op::Mul) return selects(p->args[0], defs, depth + 1) || selects(p->args[1], defs, depth + 1);
  return false;
}

class SkipZeroAdjoints : public BlockRewriter {
protected:
  void chain(Lets &lets, Expr &) override {
    std::unordered_map<std::string, Expr> defs;
    for (auto &[name, value] : lets) {
      auto f = value->as<Fold>();
      if (!f) {
        defs[name] = value;
        continue;
      }
      std::string d = scalingCotangent(*f);
      if (d.empty() || !selects(Var::make(d, Type::f64()), defs)) continue;
      Expr dv = Var::make(d, findType(f->body, d));
      value = If::make(Prim::make(Op::Ne, {dv, Const::zero(dv->type)}), value, ir::Tuple::make({}));
      changed = true;
    }
  }

private:
  static TypeP findType(const Expr &e, const std::string &name) {
    struct Find : Visitor {
      const std::string *name;
      TypeP type;
      void visit(const Var *x) override {
        if (x->name == *name) type = x->type;
      }
    } find;
    find.name = &name;
    find.visitExpr(e);
    return find.type;
  }
};

} // namespace

Expr skipZeroAdjoints(const Expr &e, const PassContext &, bool *changed) {
  SkipZeroAdjoints skip;
  Expr r = skip.rewrite(e);
  if (changed) *changed = skip.changed;
  return r;
}

} // namespace unfad::opt
