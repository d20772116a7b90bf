// Loop state that the index alone determines, made a function of the index
// (parallel.h):
//
//   fold i in [lo, hi) from s = init -> lets; (.., next(i), ..)
//     ~>  fold i in [lo, hi) from s' = rest ->
//           let s = (.., if i == lo then init else next(i - 1), ..) in lets; (rest')
//         and the loop's value  (.., if lo < hi then next(hi - 1) else init, ..)
//
// `next` is the slice of the body's let chain that computes the component's
// new value. It may not read the state, call, allocate, store or evaluate a
// transcendental function (it runs twice: carrying `exp(x[i])` is cheaper),
// and it may read only arrays of types the loop writes no array of (C++'s strict
// aliasing: a loop writing doubles cannot change the int offsets a re-seated
// pointer is made of). Then `next(i - 1)` at the top of iteration i reads
// what iteration i - 1 read at its end.
//
// Why: a pointer re-seated in a loop (`p = layer[i].hidden`) is carried as
// integer state (tag, offset). Reverse mode tapes a loop's state per
// iteration and, for loops nested in loops, takes the per-iteration taping
// of inner loops only when they carry no state; made stateless, GradBench's
// lstm layer loop is taped instead of re-run in the backward sweep.
#include "unfad/parallel/parallel.h"
#include "each_function.h"
#include "unfad/ir/effects.h"
#include "unfad/ir/mutator.h"
#include "unfad/ir/traverse.h"

#include <algorithm>
#include <map>
#include <set>

namespace unfad::parallel {

using namespace unfad::ir;

namespace {

// The array types a loop body may write: stored to, or passed to a call
// (which may write what it is given).
std::vector<TypeP> writtenArrayTypes(const Expr &body, bool &opaque) {
  struct Scan : Visitor {
    std::vector<TypeP> types;
    bool opaque = false;
    void visit(const Store *n) override {
      types.push_back(n->array->type);
      Visitor::visit(n);
    }
    void visit(const Call *n) override {
      for (auto &a : n->args)
        if (a->type->isArray()) types.push_back(a->type);
      Visitor::visit(n);
    }
    void visit(const Resize *n) override {
      types.push_back(n->array->type);
      Visitor::visit(n);
    }
    void visit(const App *) override { opaque = true; }
    void visit(const Opaque *) override { opaque = true; }
    void visit(const Pullback *) override { opaque = true; }
  } scan;
  scan.visitExpr(body);
  opaque = scan.opaque;
  return scan.types;
}

// Operations cheap enough to compute twice (the next value is computed at
// the top of the next iteration too): no transcendental function, whose
// value is better carried than recomputed (`prev = exp(x[i])` stays state).
bool cheap(Op op) {
  switch (op) {
  case Op::Add: case Op::Sub: case Op::Mul: case Op::Div: case Op::Neg: case Op::Mod:
  case Op::Lt: case Op::Le: case Op::Gt: case Op::Ge: case Op::Eq: case Op::Ne:
  case Op::And: case Op::Or: case Op::Not: case Op::Cast: case Op::Fabs: case Op::Fmin: case Op::Fmax:
  case Op::Floor: case Op::Ceil: case Op::Round: case Op::Trunc: case Op::Sign:
    return true;
  default:
    return false;
  }
}

// Whether `e` only computes, cheaply: no stores, calls, allocation, nested
// loops or transcendental functions, and reads only arrays of none of the
// `written` types.
bool pureRead(const Expr &e, const std::vector<TypeP> &written) {
  struct Scan : Visitor {
    const std::vector<TypeP> *written;
    bool ok = true;
    void visit(const Index *n) override {
      for (auto &t : *written) ok &= !sameType(t, n->array->type);
      Visitor::visit(n);
    }
    void visit(const Prim *n) override {
      ok &= cheap(n->op);
      Visitor::visit(n);
    }
    void visit(const Fold *) override { ok = false; }
    void visit(const While *) override { ok = false; }
    void visit(const Build *) override { ok = false; }
    void visit(const Sum *) override { ok = false; }
    void visit(const Lambda *) override { ok = false; }
  } scan;
  scan.written = &written;
  scan.visitExpr(e);
  if (!scan.ok) return false;
  MemoryEffects fx = memoryEffects(e);
  return !fx.stores && !fx.calls && !fx.allocates && !fx.writesMemory;
}

Expr tupleOrOne(std::vector<Expr> es) { return es.size() == 1 ? es[0] : Tuple::make(std::move(es)); }
Expr component(const Expr &e, size_t k, size_t n) { return n == 1 ? e : Proj::make(e, int(k)); }

class IndexState : public Mutator {
public:
  explicit IndexState(NameSupply &names) : names_(names) {}

private:
  NameSupply &names_;

  // A name for `e` when it is not a variable or a literal (it is used twice).
  Expr bound(const Expr &e, const std::string &hint, std::vector<std::pair<std::string, Expr>> &lets) {
    if (e->is<Var>() || e->is<Const>()) return e;
    std::string n = names_.fresh(hint);
    lets.emplace_back(n, e);
    return Var::make(n, e->type);
  }

  Expr visit(const Fold *, const Expr &self) override {
    Expr folded = mutateChildren(self);
    const Fold *f = folded->as<Fold>();
    if (Expr r = rewrite(*f)) return r;
    return folded;
  }

  Expr rewrite(const Fold &f) {
    if (f.reversed) return nullptr;
    const TypeP &stateT = f.type;
    const bool tupleState = stateT->kind == Type::Kind::Tuple && stateT->structName.empty();
    const size_t n = tupleState ? stateT->elems.size() : 1;
    if (n == 0) return nullptr;
    LetChain chain = unzipLets(f.body);
    std::vector<Expr> nexts;
    if (!tupleState) nexts.push_back(chain.tail);
    else if (auto t = chain.tail->as<Tuple>(); t && t->elems.size() == n) nexts = t->elems;
    else return nullptr;

    bool opaque = false;
    const std::vector<TypeP> written = writtenArrayTypes(f.body, opaque);
    if (opaque) return nullptr;
    std::map<std::string, size_t> position;
    for (size_t j = 0; j < chain.lets.size(); ++j) position[chain.lets[j].first] = j;

    // Per component, the chain's lets its next value needs; nullopt-like
    // `false` when it needs the state or does more than compute.
    std::set<size_t> slice;
    std::vector<size_t> determined, kept;
    for (size_t k = 0; k < n; ++k) {
      std::set<size_t> needs;
      bool ok = pureRead(nexts[k], written);
      std::vector<std::string> work = freeVars(nexts[k]);
      while (ok && !work.empty()) {
        std::string v = work.back();
        work.pop_back();
        if (v == f.state) ok = false;
        auto it = position.find(v);
        if (!ok || it == position.end() || !needs.insert(it->second).second) continue;
        const Expr &value = chain.lets[it->second].second;
        ok = pureRead(value, written);
        for (auto &w : freeVars(value)) work.push_back(w);
      }
      if (!ok) {
        kept.push_back(k);
        continue;
      }
      determined.push_back(k);
      slice.insert(needs.begin(), needs.end());
    }
    if (determined.empty()) return nullptr;

    std::vector<std::pair<std::string, Expr>> outer; // lo, hi, init named before the loop
    Expr lo = bound(f.lo, "loop_lo", outer), hi = bound(f.hi, "loop_hi", outer);
    std::vector<Expr> inits;
    if (auto t = f.init->as<Tuple>(); t && tupleState) {
      for (auto &e : t->elems) inits.push_back(bound(e, f.state + "_init", outer));
    } else {
      Expr init = bound(f.init, f.state + "_init", outer);
      for (size_t k = 0; k < n; ++k) inits.push_back(component(init, k, n));
    }
    auto pick = [](const std::vector<Expr> &es, const std::vector<size_t> &ks) {
      std::vector<Expr> out;
      for (auto k : ks) out.push_back(es[k]);
      return out;
    };

    // The determined components after iteration `at`: the slice's lets,
    // renamed, at that index.
    auto nextAt = [&](const Expr &at) {
      std::vector<std::pair<std::string, Expr>> lets;
      std::vector<std::pair<std::string, Expr>> renames{{f.index, at}};
      auto renamed = [&](Expr e) {
        for (auto &[from, to] : renames) e = substitute(e, from, to);
        return e;
      };
      for (size_t j : slice) {
        auto &[name, value] = chain.lets[j];
        Expr v = renamed(value);
        std::string fresh = names_.fresh(name);
        lets.emplace_back(fresh, v);
        renames.emplace_back(name, Var::make(fresh, v->type));
      }
      std::vector<Expr> values;
      for (auto k : determined) values.push_back(renamed(nexts[k]));
      return zipLets(lets, tupleOrOne(values));
    };
    const Expr index = Var::make(f.index, Type::i64());
    const Expr one = Const::makeInt(1);
    const Expr atStart = tupleOrOne(pick(inits, determined));

    // Named after the body's name for the first component it determines
    // (`layer_output`).
    std::string hint = f.state;
    for (auto &[name, value] : chain.lets) {
      const Expr *of = &value;
      auto p = value->as<Proj>();
      if (p) of = &p->tuple;
      auto v = (*of)->as<Var>();
      if (v && v->name == f.state && (!p || size_t(p->index) == determined[0])) {
        hint = name;
        break;
      }
    }
    const std::string current = names_.fresh(hint + "_from_index");
    const Expr currentVar = Var::make(current, atStart->type);
    const Expr current_e =
        If::make(Prim::make(Op::Eq, {index, lo}), atStart, nextAt(Prim::make(Op::Sub, {index, one})));
    const std::string rest = names_.fresh(f.state);
    const Expr restInit = kept.empty() ? Tuple::make({}) : tupleOrOne(pick(inits, kept));
    const Expr restVar = Var::make(rest, restInit->type);

    // The state as the body knows it, from the determined and kept parts.
    auto whole = [&](const Expr &determinedE, const Expr &keptE) {
      if (kept.empty() && sameType(determinedE->type, stateT)) return determinedE;
      std::vector<Expr> parts(n);
      for (size_t j = 0; j < determined.size(); ++j) parts[determined[j]] = component(determinedE, j, determined.size());
      for (size_t j = 0; j < kept.size(); ++j) parts[kept[j]] = component(keptE, j, kept.size());
      return tupleState ? Tuple::make(parts) : parts[0];
    };
    const Expr restNext = kept.empty() ? Tuple::make({}) : tupleOrOne(pick(nexts, kept));
    // The slice's lets nothing else reads go (pure: they only computed the
    // next state, which now comes from the top of the next iteration).
    Expr rest_e = restNext;
    for (size_t j = chain.lets.size(); j-- > 0;) {
      auto &[name, value] = chain.lets[j];
      if (slice.count(j) && countUses(rest_e, name) == 0) continue;
      rest_e = Let::make(name, value, rest_e);
    }
    Expr body = Let::make(current, current_e, Let::make(f.state, whole(currentVar, restVar), rest_e));
    Expr loop = Fold::make(lo, hi, restInit, f.index, rest, body);

    const std::string loopValue = names_.fresh(f.state + "_rest");
    const std::string last = names_.fresh(hint + "_last");
    Expr final_e = If::make(Prim::make(Op::Lt, {lo, hi}), nextAt(Prim::make(Op::Sub, {hi, one})), atStart);
    Expr result = Let::make(loopValue, loop,
                            Let::make(last, final_e,
                                      whole(Var::make(last, atStart->type), Var::make(loopValue, restInit->type))));
    return zipLets(outer, result);
  }
};

} // namespace

ir::Program indexDeterminedState(const ir::Program &p) { return rewriteEachFunction<IndexState>(p); }

} // namespace unfad::parallel
