// A helper's call and its pullback in one block become one run of the
// helper's value_and_pullback:
//
//   let t = call g(a); ...; let r = pullback g(a; ct; into B)
//     ~>  let v = value_and_pullback g(a; ct; into B); let t = v#0; ...; let r = (v#1, ...)
//
// Once a data point's adjoint runs in the iteration of its forward work
// (loop fusion), a per-point helper (a log-sum-exp over the point's
// scores) is called for its value and, right after, its pullback runs the
// helper's forward sweep again (its max, its exponentials) for the
// residuals J^T needs. The pullback's forward sweep computes the value on
// the way: one run gives both, the helper's work done once.
//
// A pullback that partial evaluation guarded by its cotangent (skipped
// when the cotangent is zero at run time, `if ct != 0 then pullback ...
// else 0`) keeps its guard, with the plain call in the other branch:
//
//   let v = if ct != 0 then value_and_pullback g(a; ct; into B) else (call g(a), 0...)
//
// Sound when the pullback can move up to the call: its cotangent and
// buffers are known there (bound before the call), and nothing between
// writes what the helper reads or touches the buffers, or may throw (f_grad
// throws where f does, with the adjoints untouched). Only helpers given a
// value_and_pullback (they write no array: the call's writes are not the
// pullback's to make; ad/reverse.cpp) qualify.
#include "support.h"
#include "unfad/ir/equal.h"
#include "unfad/opt/passes.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <set>

namespace unfad::opt {

using namespace unfad::ir;

namespace {

// `lse_value` for the helper `gb::lse<double>`: the name of its value.
std::string valueName(const std::string &callee) {
  std::string base = callee.substr(0, callee.find('<'));
  if (auto colon = base.rfind("::"); colon != std::string::npos) base = base.substr(colon + 2);
  std::string name;
  for (char c : base) name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return (name.empty() ? std::string("call") : name) + "_value";
}

class ValuePullbacks : public BlockRewriter {
public:
  ValuePullbacks(const Expr &root, const PassContext &context) : context_(context) { names_.reserveAll(root); }

protected:
  void chain(Lets &lets, Expr &) override {
    for (size_t i = 0; i < lets.size(); ++i) {
      auto call = lets[i].second->as<Call>();
      if (!call || !context_.valueAndPullbacks.count(call->callee) || !call->type->isFloat()) continue;
      if (auto found = pullbackAfter(lets, i, *call)) {
        // the lets computing the cotangent go before the call, in order
        std::vector<std::pair<std::string, Expr>> moved;
        for (size_t m : found->hoisted) moved.push_back(lets[m]);
        for (auto m = found->hoisted.rbegin(); m != found->hoisted.rend(); ++m) lets.erase(lets.begin() + long(*m));
        lets.insert(lets.begin() + long(i), moved.begin(), moved.end());
        fuse(lets, i + moved.size(), *found);
      }
    }
  }

private:
  const PassContext &context_;
  NameSupply names_;

  // The pullback a let binds: plain, or guarded by its cotangent (then the
  // guard in `guard`).
  static const Pullback *pullbackOf(const Expr &value, Expr *guard) {
    if (auto pb = value->as<Pullback>()) return pb;
    auto branch = value->as<If>();
    auto pb = branch ? branch->thenE->as<Pullback>() : nullptr;
    auto ne = branch ? branch->cond->as<Prim>() : nullptr;
    if (!pb || !ne || ne->op != Op::Ne || !alphaEqual(ne->args[0], pb->cotangent) || !isConst(ne->args[1], 0.0) ||
        !isZeroValue(branch->elseE))
      return nullptr;
    *guard = branch->cond;
    return pb;
  }

  // The let after `at` taking call's pullback at the same arguments, which
  // can move up to the call, and the lets between (ascending) that compute
  // its cotangent and can move up before the call with it (`wt[i]`, a
  // point's weight read after the call): reads of memory nothing between
  // writes, arithmetic, not from the call's value.
  struct Found {
    size_t pullback;
    std::vector<size_t> hoisted;
    const Pullback *pb;
    Expr guard; // (null when unguarded)
  };
  std::optional<Found> pullbackAfter(const Lets &lets, size_t at, const Call &call) const {
    std::set<std::string> boundBetween{lets[at].first}, written, touched, added;
    MemoryEffects reads = memoryEffects(lets[at].second);
    for (size_t j = at + 1; j < lets.size(); ++j) {
      Expr guard;
      auto pb = pullbackOf(lets[j].second, &guard);
      if (pb && pb->callee == call.callee && !pb->withValue && pb->args.size() == call.args.size() &&
          std::equal(pb->args.begin(), pb->args.end(), call.args.begin(), [](auto &x, auto &y) { return alphaEqual(x, y); })) {
        Found found{j, {}, pb, guard};
        std::set<std::string> buffers, need;
        for (auto &b : pb->buffers)
          for (auto &v : freeVars(b)) buffers.insert(v);
        for (auto &v : freeVars(pb->cotangent)) need.insert(v);
        for (size_t m = j; m-- > at + 1;) {
          if (!need.count(lets[m].first)) continue;
          const Expr &v = lets[m].second;
          MemoryEffects fx = memoryEffects(v);
          if (fx.stores || fx.writesMemory || fx.calls || fx.allocates || fx.raises || countUses(v, lets[at].first) > 0)
            return std::nullopt;
          for (size_t b = at + 1; b < m; ++b)
            for (auto &a : fx.reads)
              if (memoryEffects(lets[b].second).writes.count(a)) return std::nullopt;
          found.hoisted.insert(found.hoisted.begin(), m);
          for (auto &u : freeVars(v)) need.insert(u);
        }
        bool movable = true;
        for (auto &v : need) {
          const bool hoisted = std::any_of(found.hoisted.begin(), found.hoisted.end(), [&](size_t m) { return lets[m].first == v; });
          movable = movable && (hoisted || !boundBetween.count(v));
        }
        for (auto &v : buffers) movable = movable && !boundBetween.count(v) && !written.count(v) && !touched.count(v);
        for (auto &a : reads.reads) movable = movable && !written.count(a) && !added.count(a);
        return movable ? std::optional<Found>(found) : std::nullopt;
      }
      MemoryEffects fx = effectsKnowingCallees(lets[j].second, context_);
      if (fx.raises || (fx.writesMemory && fx.writes.empty())) return std::nullopt;
      // An add into an array not read otherwise (a cotangent buffer) commutes
      // with the pullback, which only adds into its buffers (g writes no
      // array of its own).
      if (auto st = lets[j].second->as<Store>(); st && st->mode == Store::Mode::Add && st->array->is<Var>()) {
        const std::string &a = st->array->as<Var>()->name;
        if (!memoryEffects(st->index).touches(a) && !memoryEffects(st->value).touches(a)) {
          fx.writes.erase(a);
          fx.reads.erase(a);
          added.insert(a);
        }
      }
      written.insert(fx.writes.begin(), fx.writes.end());
      touched.insert(fx.reads.begin(), fx.reads.end());
      boundBetween.insert(lets[j].first);
    }
    return std::nullopt;
  }

  void fuse(Lets &lets, size_t at, const Found &found) {
    const Pullback *pb = found.pb;
    const Expr &guard = found.guard;
    const size_t j = found.pullback;
    std::vector<TypeP> types{lets[at].second->type};
    for (auto &t : pb->type->elems) types.push_back(t);
    const std::string v = names_.fresh(valueName(pb->callee));
    const TypeP vt = Type::tuple(types);
    Expr both = Pullback::make(pb->callee, pb->args, pb->cotangent, vt, pb->buffers, true);
    if (guard) {
      std::vector<Expr> callOnly{lets[at].second};
      for (auto &t : pb->type->elems) callOnly.push_back(Const::zero(t));
      both = If::make(guard, both, ir::Tuple::make(callOnly));
    }
    std::vector<Expr> cotangents;
    for (size_t k = 0; k < pb->type->elems.size(); ++k) cotangents.push_back(Proj::make(Var::make(v, vt), int(k + 1)));
    lets[j].second = ir::Tuple::make(cotangents);
    lets[at].second = Proj::make(Var::make(v, vt), 0);
    lets.insert(lets.begin() + long(at), {v, both});
    changed = true;
  }
};

} // namespace

Expr valuePullbacks(const Expr &e, const PassContext &context, bool *changed) {
  if (changed) *changed = false;
  if (context.valueAndPullbacks.empty()) return e;
  ValuePullbacks pass(e, context);
  Expr r = pass.rewrite(e);
  if (changed) *changed = pass.changed;
  return r;
}

} // namespace unfad::opt
