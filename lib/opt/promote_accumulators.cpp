// Scalar promotion of accumulations at a loop-invariant index: in a loop
// whose only uses of a buffer d are `+=` stores, the ones at an index that
// does not change with the iteration add into a register carried by the
// loop, and that register goes into d once afterwards:
//   fold j -> (...; d[i] += e; d[j] += g; ...)
//     ~>  let r = fold j from (s, 0) -> (...; acc' = acc + e; d[j] += g; ...)
//         in if lo < hi then d[i] += r.1
// (the pairwise-energy gradient's d_p[i] updates, a matrix product's
// `out(i, k) += a(i, j) * b(j, k)`: one read-modify-write per iteration
// fewer; the guard keeps an empty loop from touching d[i]). When the
// register's stores are the loop's only ones into d, it starts at d[i] and
// is stored back (`r0 = d[i]; ...; d[i] = r.1`): the additions are then the
// program's, in its order, and the sum is the same to the last bit (f_grad's
// values are f's). With other stores into d (`d[j] += g`, j may be i) it
// starts at 0: those go to memory meanwhile, and commute with it. A value
// stored into d[i] just before the loop (`out(i, k) = a(i, 0) * b(0, k)`) is
// the register's start instead, and the store is the one afterwards.
#include "support.h"
#include "unfad/opt/passes.h"
#include "unfad/ir/equal.h"
#include "unfad/ir/mutator.h"

#include <algorithm>
#include <functional>
#include <unordered_map>

namespace unfad::opt {

using namespace unfad::ir;

namespace {

// One promoted element: d[index].path, and the += stores into it.
struct Accumulator {
  Expr array, index;
  std::vector<int> path;
  TypeP type;
  bool fromMemory = false; // its stores are the loop's only ones into the array
  bool stored = false;     // it starts at a value stored just before the loop
  const std::string &arrayName() const { return array->as<Var>()->name; }
};

// The `+=` stores into `a` in e, and its sizes.
struct Accumulations {
  int adds = 0, sizes = 0;
};

Accumulations accumulations(const Expr &e, const std::string &a) {
  struct Count : Visitor {
    std::string a;
    int adds = 0, sizes = 0;
    void visit(const Store *n) override {
      if (auto v = n->array->as<Var>(); v && v->name == a && n->mode == Store::Mode::Add) ++adds;
      Visitor::visit(n);
    }
    void visit(const ir::Size *n) override {
      if (auto v = n->array->as<Var>(); v && v->name == a) ++sizes;
      Visitor::visit(n);
    }
  } count;
  count.a = a;
  count.visitExpr(e);
  return {count.adds, count.sizes};
}

// Only `+=` stores (and sizes) use `a` in e.
bool onlyAccumulated(const Expr &e, const std::string &a) {
  Accumulations n = accumulations(e, a);
  return n.adds > 0 && countUses(e, a) == n.adds + n.sizes;
}

// The index as an expression of values from outside the loop (through the
// body's lets of integer arithmetic), or null when it varies.
Expr invariantIndex(const Expr &e, const Fold *f, const std::unordered_map<std::string, Expr> &defs) {
  if (e->is<Const>()) return e;
  if (auto v = e->as<Var>()) {
    if (v->name == f->index || v->name == f->state) return nullptr;
    auto it = defs.find(v->name);
    return it == defs.end() ? e : invariantIndex(it->second, f, defs);
  }
  auto p = e->as<Prim>();
  if (!p || !p->type->isInt() || (p->op != Op::Add && p->op != Op::Sub && p->op != Op::Mul)) return nullptr;
  std::vector<Expr> args;
  for (auto &x : p->args) {
    args.push_back(invariantIndex(x, f, defs));
    if (!args.back()) return nullptr;
  }
  return Prim::make(p->op, args);
}

class PromoteAccumulators : public BlockRewriter {
public:
  explicit PromoteAccumulators(const Expr &root) { names_.reserveAll(root); }

protected:
  void chain(Lets &lets, Expr &) override {
    Lets out;
    for (auto &l : lets) {
      auto f = l.second->as<Fold>();
      if (!f || !promote(l.first, f, out)) out.push_back(l);
    }
    lets = std::move(out);
  }

private:
  NameSupply names_; // every name of the function, and the ones made here

  // The accumulators of the loop body's lets; accOf[k]: the one let k adds
  // into, or -1.
  static std::vector<Accumulator> findAccumulators(const Fold *f, const Lets &body, std::vector<int> &accOf) {
    std::unordered_map<std::string, Expr> defs(body.begin(), body.end());
    std::vector<Accumulator> accs;
    accOf.assign(body.size(), -1);
    std::unordered_map<std::string, bool> ok; // array -> only accumulated in the body
    for (size_t k = 0; k < body.size(); ++k) {
      auto st = body[k].second->as<Store>();
      if (!st || st->mode != Store::Mode::Add || !st->value->type->isFloat()) continue;
      auto a = st->array->as<Var>();
      Expr index = a ? invariantIndex(st->index, f, defs) : nullptr;
      if (!index) continue;
      auto it = ok.find(a->name);
      if (it == ok.end()) it = ok.emplace(a->name, onlyAccumulated(f->body, a->name)).first;
      if (!it->second) continue;
      int found = -1;
      for (size_t m = 0; m < accs.size(); ++m)
        if (accs[m].arrayName() == a->name && alphaEqual(accs[m].index, index) && accs[m].path == st->path) found = int(m);
      if (found < 0) {
        found = int(accs.size());
        accs.push_back({st->array, index, st->path, st->value->type});
      }
      accOf[k] = found;
    }
    for (size_t m = 0; m < accs.size(); ++m)
      accs[m].fromMemory = std::count(accOf.begin(), accOf.end(), int(m)) ==
                           accumulations(f->body, accs[m].arrayName()).adds;
    return accs;
  }

  // The loop's new body: the old state is component 0 of the new one, each
  // accumulator the next; its stores become additions to the register.
  Expr promotedBody(const Fold *f, const Lets &body, const Expr &tail, const std::vector<Accumulator> &accs,
                    const std::vector<int> &accOf, const Expr &newState) {
    std::vector<std::string> cur;
    Lets lets{{f->state, Proj::make(newState, 0)}};
    for (size_t m = 0; m < accs.size(); ++m) {
      cur.push_back(names_.fresh(accs[m].arrayName() + "_acc"));
      lets.push_back({cur.back(), Proj::make(newState, int(m) + 1)});
    }
    for (size_t k = 0; k < body.size(); ++k) {
      if (accOf[k] < 0) {
        lets.push_back(body[k]);
        continue;
      }
      size_t m = size_t(accOf[k]);
      std::string next = names_.fresh(accs[m].arrayName() + "_acc");
      lets.push_back({next, Prim::make(Op::Add, {Var::make(cur[m], accs[m].type), body[k].second->as<Store>()->value})});
      cur[m] = next;
    }
    std::vector<Expr> result{tail};
    for (size_t m = 0; m < accs.size(); ++m) result.push_back(Var::make(cur[m], accs[m].type));
    return zipLets(lets, ir::Tuple::make(result));
  }

  // The value `d[i] = v` stored into the accumulator's element by the lets
  // before the loop, with nothing between reading or writing d (the store is
  // taken out: the register starts at v and is stored whether or not the loop
  // runs). Null when there is none.
  static Expr storedJustBefore(Lets &before, const Accumulator &a) {
    if (!a.fromMemory) return nullptr;
    for (size_t k = before.size(); k-- > 0;) {
      auto st = before[k].second->as<Store>();
      bool same = st && st->mode == Store::Mode::Set && st->array->as<Var>() &&
                  st->array->as<Var>()->name == a.arrayName() && alphaEqual(st->index, a.index) && st->path == a.path;
      if (same) {
        Expr value = st->value;
        before.erase(before.begin() + long(k));
        return value;
      }
      if (countUses(before[k].second, a.arrayName()) > 0) return nullptr;
    }
    return nullptr;
  }

  bool promote(const std::string &name, const Fold *f, Lets &out) {
    LetChain chain = unzipLets(f->body);
    Lets &body = chain.lets;
    Expr &tail = chain.tail;
    std::vector<int> accOf;
    std::vector<Accumulator> accs = findAccumulators(f, body, accOf);
    if (accs.empty()) return false;
    changed = true;
    auto lo = f->lo->as<Const>(), hi = f->hi->as<Const>();
    bool runs = lo && hi && lo->ivalue < hi->ivalue;
    std::vector<TypeP> types{f->init->type};
    std::vector<Expr> init{f->init};
    for (auto &a : accs) {
      types.push_back(a.type);
      if (!a.fromMemory) {
        init.push_back(Const::zero(a.type));
        continue;
      }
      Expr current = storedJustBefore(out, a);
      if (current) {
        a.stored = true;
      } else {
        current = Index::make(a.array, a.index);
        for (int k : a.path) current = Proj::make(current, k);
        if (!runs) current = If::make(Prim::make(Op::Lt, {f->lo, f->hi}), current, Const::zero(a.type));
      }
      std::string start = names_.fresh(a.arrayName() + "_acc");
      out.push_back({start, current});
      init.push_back(Var::make(start, a.type));
    }
    TypeP stateType = Type::tuple(types);
    std::string state = names_.fresh(f->state);
    Expr newBody = promotedBody(f, body, tail, accs, accOf, Var::make(state, stateType));
    std::string r = names_.fresh(name);
    Expr result = Var::make(r, stateType);
    out.push_back({r, Fold::make(f->lo, f->hi, ir::Tuple::make(init), f->index, state, newBody, f->reversed)});
    Expr flush = ir::Tuple::make({}), stored = ir::Tuple::make({});
    for (size_t m = accs.size(); m-- > 0;) {
      Expr &into = accs[m].stored ? stored : flush;
      into = Let::make(names_.fresh("_"),
                       Store::make(accs[m].array, accs[m].index, Proj::make(result, int(m) + 1),
                                   accs[m].fromMemory ? Store::Mode::Set : Store::Mode::Add, accs[m].path),
                       into);
    }
    if (!runs) flush = If::make(Prim::make(Op::Lt, {f->lo, f->hi}), flush, ir::Tuple::make({}));
    bool flushes = false, stores = false;
    for (const Accumulator &a : accs) (a.stored ? stores : flushes) = true;
    if (flushes) out.push_back({names_.fresh("_"), flush});
    if (stores) out.push_back({names_.fresh("_"), stored});
    out.push_back({name, Proj::make(result, 0)});
    return true;
  }
};

} // namespace

Expr promoteAccumulators(const Expr &e, const PassContext &, bool *changed) {
  PromoteAccumulators promote(e);
  Expr r = promote.rewrite(e);
  if (changed) *changed = promote.changed;
  return r;
}

} // namespace unfad::opt
