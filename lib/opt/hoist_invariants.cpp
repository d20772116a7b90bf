// Loop-invariant code motion, for what may run once before a loop even
// when the loop runs zero times: scratch buffers of an invariant size (a
// tape filled and read within one iteration is reused by the next, one
// allocation instead of one per iteration) and trap-free scalar arithmetic
// on invariant values (such as that size, an array's length, or a scalar
// fold counting an inner loop's stores):
//   let r = fold i .. -> (let x = e in body)  ~>  let x = e in let r = fold i .. -> body
// Scratch buffers allocated in the arms of an `if` in the body (a branch's
// J^T: a layer chosen by its index) are hoisted the same way.
// A scratch buffer whose size depends on the index (a tape of an inner
// triangular loop) is allocated before the loop at the largest size an
// iteration asks for (loop_bounds.cpp) and reused.
// A zero-filled local buffer of an invariant size that is not small enough
// for the stack (a `std::vector<double> t(k)` declared in a loop body, or
// its adjoint), and that the body does not resize, is allocated once before
// the loop and zeroed where it was allocated, which is what the allocation
// did besides allocating:
//   fold i .. -> (let a = new[n] in body)
//     ~>  let a = new[n] in fold i .. -> (let _ = (a[k] := 0 for k < n) in body)
#include "support.h"
#include "unfad/opt/passes.h"
#include "unfad/ir/mutator.h"

#include <algorithm>

namespace unfad::opt {

using namespace unfad::ir;

namespace {

class HoistInvariants : public BlockRewriter {
protected:
  void chain(Lets &lets, Expr &) override {
    for (size_t k = 0; k < lets.size(); ++k) {
      auto f = lets[k].second->as<Fold>();
      if (!f) continue;
      std::unordered_set<std::string> inner{f->index, f->state};
      Lets hoisted, kept;
      std::unordered_map<std::string, Expr> defs; // the body's integer arithmetic, for sizes
      std::unordered_map<std::string, Expr> boundNames; // a size variable -> its bound, hoisted
      std::unordered_set<std::string> resized; // (the next iteration would find them at another size)
      for (auto &a : ir::resizedArrays(f->body))
        if (auto v = a->as<Var>()) resized.insert(v->name);
      Expr tail = f->body;
      while (auto l = tail->as<Let>()) {
        bool invariant = true;
        for (auto &v : freeVars(l->value)) invariant &= !inner.count(v);
        if (invariant && movable(l->value)) {
          hoisted.push_back({l->name, l->value});
        } else if (invariant && reusableBuffer(l->value) && !resized.count(l->name)) {
          hoisted.push_back({l->name, l->value});
          kept.push_back({names_.fresh("_"), zeroFill(l->name, l->value)});
        } else if (Expr bounded = boundedScratch(*f, l->value, defs, inner, hoisted, boundNames)) {
          hoisted.push_back({l->name, bounded}); // a tape sized by the index: its largest size
        } else {
          Expr value = l->value;
          if (Expr lighter = hoistFromArms(value, inner, hoisted)) value = lighter;
          kept.push_back({l->name, value});
          inner.insert(l->name);
          if (l->value->type->isInt() && trapFree(l->value)) defs[l->name] = l->value;
        }
        tail = l->body;
      }
      if (hoisted.empty()) continue;
      lets[k].second = Fold::make(f->lo, f->hi, f->init, f->index, f->state, zipLets(kept, tail), f->reversed);
      lets.insert(lets.begin() + long(k), hoisted.begin(), hoisted.end());
      k += hoisted.size();
      changed = true;
    }
  }

public:
  explicit HoistInvariants(const Expr &root) { names_.reserveAll(root); }

private:
  NameSupply names_;

  // A zero-filled buffer of scalars or structs the printer would put on
  // the heap (its size is not a small constant).
  static bool reusableBuffer(const Expr &v) {
    auto a = v->as<NewArray>();
    if (!a || a->scratch || a->type->elem()->isArray()) return false;
    auto constant = a->size->as<Const>();
    return !constant || constant->ivalue > kStackBufferLimit;
  }
  // for k in [0, n): a[k] = 0
  Expr zeroFill(const std::string &array, const Expr &allocation) {
    auto a = allocation->as<NewArray>();
    Expr buffer = Var::make(array, a->type);
    std::string k = names_.fresh("k"), unit = names_.fresh("fill");
    Expr store = Store::make(buffer, Var::make(k, Type::i64()), Const::zero(a->type->elem()), Store::Mode::Set);
    return Fold::make(Const::makeInt(0), a->size, ir::Tuple::make({}), k, unit,
                      Let::make(names_.fresh("_"), store, ir::Tuple::make({})));
  }
  // A scratch buffer whose size depends on the loop index, allocated
  // before the loop at its largest size over the loop (loop_bounds.cpp).
  // Tapes of one size share the bound's let.
  Expr boundedScratch(const Fold &f, const Expr &v, const std::unordered_map<std::string, Expr> &defs,
                      const std::unordered_set<std::string> &inner, Lets &hoisted,
                      std::unordered_map<std::string, Expr> &boundNames) {
    auto a = v->as<NewArray>();
    if (!a || !a->scratch || !trapFree(f.lo) || !trapFree(f.hi)) return nullptr;
    auto sizeVar = a->size->as<Var>();
    if (sizeVar && boundNames.count(sizeVar->name))
      return NewArray::make(boundNames[sizeVar->name], a->type->elem(), true);
    Expr size = loopSizeBound(f, a->size, defs, inner);
    if (!size) return nullptr;
    if (!size->is<Const>() && !size->is<Var>()) {
      std::string n = names_.fresh(sizeVar ? sizeVar->name : std::string("n"));
      hoisted.push_back({n, size});
      size = Var::make(n, size->type);
    }
    if (sizeVar) boundNames[sizeVar->name] = size;
    return NewArray::make(size, a->type->elem(), true);
  }
  // The scratch buffers of an invariant size allocated in the arms of an
  // `if` in the loop body (the tapes of a branch's J^T, at any depth of
  // nested `if`s), with the invariant arithmetic their sizes need, go to
  // `hoisted`: allocated once before the loop instead of in every iteration
  // that takes the branch. Returns the `if` without them, or null.
  Expr hoistFromArms(const Expr &v, const std::unordered_set<std::string> &inner, Lets &hoisted) {
    auto i = v->as<If>();
    if (!i) return nullptr;
    Expr thenE = hoistFromArm(i->thenE, inner, hoisted), elseE = hoistFromArm(i->elseE, inner, hoisted);
    if (thenE == i->thenE && elseE == i->elseE) return nullptr;
    return If::make(i->cond, thenE, elseE);
  }
  Expr hoistFromArm(const Expr &arm, std::unordered_set<std::string> inner, Lets &hoisted) {
    // Lets that could run before the loop (candidates), then those that go:
    // the buffers and, transitively, the candidates they read.
    Lets lets;
    std::vector<bool> candidate;
    bool nested = false;
    Expr tail = arm;
    while (auto l = tail->as<Let>()) {
      bool invariant = true;
      for (auto &v : freeVars(l->value)) invariant &= !inner.count(v);
      Expr value = l->value;
      const bool movesOut = invariant && movable(value);
      if (!movesOut) {
        // (what a nested arm hoists may not read this arm's lets: whether
        // those go too is decided below, after the nested arms have hoisted)
        std::unordered_set<std::string> before = inner;
        for (auto &[name, _] : lets) before.insert(name);
        if (Expr lighter = hoistFromArms(value, before, hoisted)) {
          value = lighter;
          nested = true;
        }
        inner.insert(l->name);
      }
      lets.push_back({l->name, value});
      candidate.push_back(movesOut);
      tail = l->body;
    }
    std::unordered_set<std::string> needed;
    std::vector<bool> goes(lets.size(), false);
    for (size_t k = lets.size(); k-- > 0;) {
      if (!candidate[k]) continue;
      auto a = lets[k].second->as<NewArray>();
      if (!(a && a->scratch) && !needed.count(lets[k].first)) continue;
      goes[k] = true;
      for (auto &v : freeVars(lets[k].second)) needed.insert(v);
    }
    if (!nested && std::none_of(goes.begin(), goes.end(), [](bool b) { return b; })) return arm;
    Lets kept;
    for (size_t k = 0; k < lets.size(); ++k) (goes[k] ? hoisted : kept).push_back(lets[k]);
    return zipLets(kept, tail);
  }
  static bool movable(const Expr &v) {
    if (auto a = v->as<NewArray>()) return a->scratch;
    return v->type->isScalar() && trapFree(v);
  }
  // Arithmetic on variables and constants, without integer division (x / 0).
  static bool trapFree(const Expr &e) {
    if (e->is<Const>() || e->is<Var>()) return true;
    if (auto p = e->as<Prim>()) {
      if ((p->op == Op::Div || p->op == Op::Mod) && !p->type->isFloat()) return false;
      return std::all_of(p->args.begin(), p->args.end(), trapFree);
    }
    if (auto i = e->as<If>()) return trapFree(i->cond) && trapFree(i->thenE) && trapFree(i->elseE);
    if (auto l = e->as<Let>()) return trapFree(l->value) && trapFree(l->body);
    // an array's length (a buffer's size is fixed when it is allocated)
    if (auto z = e->as<ir::Size>()) return z->array->is<Var>();
    // an integer fold (the number of stores an inner loop makes: a tape's size)
    if (auto f = e->as<Fold>())
      return f->type->isScalar() && trapFree(f->lo) && trapFree(f->hi) && trapFree(f->init) && trapFree(f->body);
    return false;
  }
};

} // namespace

Expr hoistInvariants(const Expr &e, const PassContext &, bool *changed) {
  HoistInvariants hoist(e);
  Expr r = hoist.rewrite(e);
  if (changed) *changed = hoist.changed;
  return r;
}

} // namespace unfad::opt
