// A cotangent buffer known zero is stored into, not added into, and the
// resets that kept it zero for the next add go:
//
//   fold s -> (fold j in [0, n) -> d_k[j] += v_j) ... (t = d_k[i]; d_k[i] = 0) ...
//     ~>  fold s -> (fold j in [0, n) -> d_k[j] = v_j) ... (t = d_k[i]) ...
//
// The reverse sweep keeps the cotangent buffer of a scratch array (the k1
// of a Runge-Kutta step, a cluster's q-weighted difference in a mixture
// model) zero between uses: each iteration adds into it, reads it and puts
// the zero back. When each iteration's first touch of the buffer adds into
// every element (a loop over [0, length) at its own index), the add reads
// a zero: a store gives the same values without the read, and the resets
// are then read by nothing (the next iteration's stores overwrite them,
// and nothing after the loop touches the buffer). On small buffers the
// read-after-reset also costs a stalled load (a vector load of elements
// just stored one by one).
//
// Sound where it is proved: the buffer is a local array allocated zero;
// every block from its allocation down to the rewritten one touches it in
// one let only, a loop whose iterations each leave it zero (leftZero), so
// it is zero when each iteration of the innermost starts and nothing reads
// it after; a reset goes only when no later access of the iteration can
// reach its element (accesses at constant indices, loops at their own
// index from a constant start).
#include "support.h"
#include "unfad/ir/equal.h"
#include "unfad/ir/mutator.h"
#include "unfad/opt/passes.h"

#include <optional>
#include <unordered_map>

namespace unfad::opt {

using namespace unfad::ir;

namespace {

bool named(const Expr &e, const std::string &array) {
  auto v = e->as<Var>();
  return v && v->name == array;
}

bool isReset(const Store *s) { return s && s->mode == Store::Mode::Set && isConst(s->value, 0.0); }

// Whether `loop`'s body uses `array` only as array[index] (reads and stores).
bool ownIndexOnly(const Fold &loop, const std::string &array) {
  struct Walk : Visitor {
    const Fold *loop;
    const std::string *array;
    bool ok = true;
    void visit(const Index *e) override {
      if (!named(e->array, *array)) return Visitor::visit(e);
      ok = ok && isIndexOf(e->index, *loop);
      visitExpr(e->index);
    }
    void visit(const Store *e) override {
      if (!named(e->array, *array)) return Visitor::visit(e);
      ok = ok && e->path.empty() && isIndexOf(e->index, *loop);
      visitExpr(e->index);
      visitExpr(e->value);
    }
    void visit(const Var *e) override { ok = ok && e->name != *array; }
  } walk;
  walk.loop = &loop;
  walk.array = &array;
  walk.visitExpr(loop.body);
  return walk.ok && !touches(loop.lo, array) && !touches(loop.hi, array) && !touches(loop.init, array);
}

// The first touch of the block: a loop over [0, length) whose body's one
// access of the array is `array[j] += v` (v not reading it). Its store.
const Store *addsIntoWhole(const Expr &value, const std::string &array, const Expr &length, const ScalarLets &scalars) {
  auto f = value->as<Fold>();
  if (!f || scalars.constant(f->lo) != 0 || !alphaEqual(scalars.resolve(f->hi), scalars.resolve(length)) ||
      !ownIndexOnly(*f, array))
    return nullptr;
  LetChain body = unzipLets(f->body);
  const Store *add = nullptr;
  for (auto &[name, v] : body.lets) {
    if (!touches(v, array)) continue;
    auto s = storeInto(v, array);
    if (add || !s || s->mode != Store::Mode::Add || touches(s->value, array)) return nullptr;
    add = s;
  }
  return touches(body.tail, array) ? nullptr : add;
}

// One later access of the array in the block: at a constant element, or a
// loop at its own index over [lo, hi) (lo constant); `reset` when it ends
// by storing the zero back.
struct Access {
  std::optional<long long> at;     // a constant element
  std::optional<long long> lo;     // a loop's first element (constant)
  bool loop = false;
  const Store *reset = nullptr;    // the last store, when a reset
};

std::optional<Access> classify(const Expr &value, const std::string &array, const ScalarLets &scalars) {
  if (auto r = value->as<Index>(); r && named(r->array, array)) {
    if (auto k = scalars.constant(r->index)) return Access{k, std::nullopt, false, nullptr};
    return std::nullopt;
  }
  if (auto s = storeInto(value, array)) {
    auto k = scalars.constant(s->index);
    if (!k || touches(s->value, array)) return std::nullopt;
    return Access{k, std::nullopt, false, isReset(s) ? s : nullptr};
  }
  auto f = value->as<Fold>();
  if (!f || !ownIndexOnly(*f, array)) return std::nullopt;
  Access a{std::nullopt, scalars.constant(f->lo), true, nullptr};
  LetChain body = unzipLets(f->body);
  if (touches(body.tail, array)) return a;
  const Store *last = nullptr;
  for (auto &[name, v] : body.lets)
    if (touches(v, array)) last = storeInto(v, array);
  a.reset = isReset(last) ? last : nullptr;
  return a;
}

// Whether no element `later` touches is one `reset` zeroes.
bool disjoint(const Access &reset, const Access &later) {
  if (!reset.loop && !later.loop) return *reset.at != *later.at;
  if (!reset.loop) return later.lo && *reset.at < *later.lo;
  if (!later.loop) return reset.lo && *later.at < *reset.lo;
  return false;
}

// A block where `array` is zero on entry and read by nothing after it: the
// first add stored, and the resets no later access reaches, gone.
struct Rewrite {
  std::string array;
  Expr length;
};

class Sites {
public:
  // Chain heads (the first Let of a block) and the rewrites for them.
  std::unordered_map<const Node *, std::vector<Rewrite>> at;

  void findIn(const Expr &e, ScalarLets scalars) {
    struct Walk : Visitor {
      Sites *sites;
      ScalarLets scalars;
      std::unordered_set<const Node *> inChain;
      void visit(const Let *n) override {
        if (!inChain.count(n)) {
          for (const Let *l = n; l; l = l->body->as<Let>()) inChain.insert(l);
          sites->chain(n, scalars);
        }
        scalars.define(n->name, n->value);
        Visitor::visit(n);
      }
    } walk;
    walk.sites = this;
    walk.scalars = std::move(scalars);
    walk.visitExpr(e);
  }

private:
  // The arrays a block allocates zero, followed down from there.
  void chain(const Let *head, ScalarLets scalars) {
    std::vector<std::pair<std::string, Expr>> lets;
    Expr tail;
    for (const Let *l = head; l; l = l->body->as<Let>()) {
      lets.push_back({l->name, l->value});
      tail = l->body;
    }
    for (size_t k = 0; k < lets.size(); ++k) {
      scalars.define(lets[k].first, lets[k].second);
      auto alloc = lets[k].second->as<NewArray>();
      if (!alloc || alloc->scratch || !alloc->type->elem()->isFloat() || touches(tail, lets[k].first)) continue;
      follow(head, lets, k + 1, {lets[k].first, alloc->size}, scalars);
    }
  }

  // From lets[from] on, the array is zero and nothing after reads it.
  void follow(const Node *head, const std::vector<std::pair<std::string, Expr>> &lets, size_t from,
              const Rewrite &r, ScalarLets scalars) {
    std::vector<size_t> touching;
    for (size_t k = from; k < lets.size(); ++k)
      if (touches(lets[k].second, r.array)) touching.push_back(k);
    if (touching.empty()) return;
    for (size_t k = from; k < touching[0]; ++k) scalars.define(lets[k].first, lets[k].second);
    if (addsIntoWhole(lets[touching[0]].second, r.array, r.length, scalars)) {
      at[head].push_back(r);
      return;
    }
    auto f = lets[touching[0]].second->as<Fold>();
    if (touching.size() != 1 || !f || touches(f->lo, r.array) || touches(f->hi, r.array) ||
        touches(f->init, r.array) || !leftZero(f->body, r.array, r.length))
      return;
    auto body = f->body->as<Let>();
    if (!body || touches(unzipLets(f->body).tail, r.array)) return;
    std::vector<std::pair<std::string, Expr>> inner;
    for (const Let *l = body; l; l = l->body->as<Let>()) inner.push_back({l->name, l->value});
    follow(body, inner, 0, r, scalars);
  }
};

// The rewrite of one block (its lets already rewritten inside).
bool rewriteBlock(Lets &lets, const Rewrite &r, const ScalarLets &outer) {
  ScalarLets scalars = outer;
  size_t first = 0;
  for (; first < lets.size() && !touches(lets[first].second, r.array); ++first) scalars.define(lets[first].first, lets[first].second);
  if (first == lets.size()) return false;
  const Store *add = addsIntoWhole(lets[first].second, r.array, r.length, scalars);
  if (!add) return false;
  struct ToSet : Mutator {
    const Store *add;
    Expr visit(const Store *n, const Expr &self) override {
      if (n != add) return mutateChildren(self);
      return Store::make(n->array, n->index, n->value, Store::Mode::Set, n->path);
    }
  } toSet;
  toSet.add = add;
  lets[first].second = toSet.mutate(lets[first].second);

  // (an access not understood, nullopt, may touch any element: no reset
  // before it goes)
  std::vector<std::pair<size_t, std::optional<Access>>> later;
  for (size_t k = first + 1; k < lets.size(); ++k) {
    scalars.define(lets[k].first, lets[k].second);
    if (touches(lets[k].second, r.array)) later.push_back({k, classify(lets[k].second, r.array, scalars)});
  }
  std::vector<size_t> dropLets;
  std::vector<std::pair<size_t, const Store *>> dropInLoops;
  for (size_t p = 0; p < later.size(); ++p) {
    if (!later[p].second || !later[p].second->reset) continue;
    const Access &reset = *later[p].second;
    bool reached = false;
    for (size_t q = p + 1; q < later.size() && !reached; ++q)
      reached = !later[q].second || !disjoint(reset, *later[q].second);
    if (reached) continue;
    if (reset.loop) dropInLoops.push_back({later[p].first, reset.reset});
    else dropLets.push_back(later[p].first);
  }
  struct DropStore : Mutator {
    const Store *reset;
    Expr visit(const Let *n, const Expr &self) override {
      if (n->value.get() == reset) return mutate(n->body);
      return mutateChildren(self);
    }
  };
  for (auto &[k, store] : dropInLoops) {
    DropStore drop;
    drop.reset = store;
    lets[k].second = drop.mutate(lets[k].second);
  }
  for (auto k = dropLets.rbegin(); k != dropLets.rend(); ++k) lets.erase(lets.begin() + long(*k));
  return true;
}

class Apply : public Mutator {
public:
  explicit Apply(const Sites &sites) : sites_(sites) {}
  bool changed = false;

protected:
  Expr visit(const Let *n, const Expr &self) override {
    scalars_.define(n->name, n->value);
    auto it = sites_.at.find(n);
    if (it == sites_.at.end()) return mutateChildren(self);
    const ScalarLets before = scalars_;
    LetChain chain = unzipLets(self);
    for (auto &[name, value] : chain.lets) {
      value = mutate(value);
      scalars_.define(name, value);
    }
    chain.tail = mutate(chain.tail);
    scalars_ = before;
    for (auto &r : it->second) changed |= rewriteBlock(chain.lets, r, scalars_);
    return zipLets(chain.lets, chain.tail);
  }

private:
  const Sites &sites_;
  ScalarLets scalars_;
};

} // namespace

Expr firstAdds(const Expr &e, const PassContext &, bool *changed) {
  Sites sites;
  sites.findIn(e, {});
  if (changed) *changed = false;
  if (sites.at.empty()) return e;
  Apply apply(sites);
  Expr r = apply.mutate(e);
  if (changed) *changed = apply.changed;
  return r;
}

} // namespace unfad::opt
