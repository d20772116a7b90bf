// Fusion of a loop with its adjoint sweep:
//   let r = fold i in [lo, hi) from s = init -> F
//   ...                                           (nothing the sweep reads)
//   let _ = fold j in reversed [lo, hi) from () -> B
//   ~>  let r = fold i in [lo, hi) from s = init -> (F's lets; B[i/j]; F's result)
// Valid when the sweep carries no state and only adds into arrays that
// neither loop reads (+= commutes, so its iterations may run in any order),
// and the only memory F writes that B reads is what F wrote in the same
// iteration (the tape of the loop's state), and F does not throw (f_grad
// leaves the adjoints untouched when it throws). Then one pass computes the
// value and the gradient, as a person would write it, and CSE shares the
// forward values with the sweep's recomputation.
//
// Local arrays only the two loops touch may be written by both when each
// iteration uses them on its own (iteration_arrays.cpp): scratch buffers
// both fill before they read them (the loss of one data point computed in
// `diff`, recomputed by the sweep), cotangent buffers the sweep leaves zero
// at the end of every iteration, and tapes read by the sweep's iteration
// only in the block its forward iteration wrote (i * n + j, j < n).
#include "support.h"
#include "unfad/opt/passes.h"
#include "unfad/ir/equal.h"
#include "unfad/ir/mutator.h"

#include <algorithm>
#include <functional>
#include <optional>
#include <set>
#include <unordered_map>

namespace unfad::opt {

using namespace unfad::ir;

namespace {

// Arrays read and written, with the printed indices of reads and stores
// ("*": any element).
struct Access {
  std::unordered_map<std::string, std::set<std::string>> reads, stores;
  std::unordered_set<std::string> accumulated; // only += stores / pullback buffers
  std::unordered_set<std::string> set;         // stored with =
  bool setStores = false, unknownCalls = false;
  // A throw, or a call that may throw: the sweep's += must wait until the
  // loop is done.
  bool raises = false;
};

Access accessOf(const Expr &e, const PassContext &context) {
  struct Collect : Visitor {
    Access *acc;
    const PassContext *context;
    // (a view a + o is an access to a)
    static std::string name(const Expr &a) { auto v = rootArray(a)->as<Var>(); return v ? v->name : std::string("?"); }
    void visit(const Index *n) override { acc->reads[name(n->array)].insert(print(n->index)); Visitor::visit(n); }
    void visit(const Store *n) override {
      acc->stores[name(n->array)].insert(print(n->index));
      if (n->mode == Store::Mode::Add) acc->accumulated.insert(name(n->array));
      else {
        acc->setStores = true;
        acc->set.insert(name(n->array));
      }
      visitExpr(n->index);
      visitExpr(n->value);
    }
    void visit(const Throw *) override { acc->raises = true; }
    void visit(const Resize *n) override { // (a local array's size: all of it, rewritten)
      acc->reads[name(n->array)].insert("*");
      acc->stores[name(n->array)].insert("*");
      acc->setStores = true;
      acc->set.insert(name(n->array));
      visitExpr(n->size);
    }
    void visit(const Pullback *n) override {
      if (!context->pureCallees.count(n->callee)) acc->unknownCalls |= !n->buffers.empty();
      for (auto &b : n->buffers) {
        acc->stores[name(b)].insert("*");
        acc->accumulated.insert(name(b));
      }
      for (auto &a : n->args) if (a->type->isArray()) acc->reads[name(a)].insert("*");
      Visitor::visit(n);
    }
    void visit(const Call *n) override {
      bool arrays = false;
      for (auto &a : n->args) if (a->type->isArray()) { arrays = true; acc->reads[name(a)].insert("*"); }
      if (arrays && !context->pureCallees.count(n->callee)) acc->unknownCalls = true;
      acc->raises |= context->raisingCallees.count(n->callee) > 0;
      Visitor::visit(n);
    }
  } collect;
  Access acc;
  collect.acc = &acc;
  collect.context = &context;
  collect.visitExpr(e);
  return acc;
}

// A sweep whose state only accumulates, as a stateless sweep adding into
// an array of one element per floating-point leaf of the state:
//
//   let d = fold j in reversed [lo, hi) from s = init -> (...; (s#0 + e0, ...))
//     ~>  let acc = new f64[leaves]; fold j .. from () -> (...; acc[0] += e0; ...; ());
//         let d = (init#0 + acc[0], ...)
//
// (a data loop's adjoint summing a learned scale's cotangent over the
// points). Its iterations then commute like the other sweeps' (+= into an
// array nothing else reads), so it fuses with its loop; promote-accumulators
// keeps each sum in a register of the fused loop. The sums are added in
// another order, as fusion already does for every += into a buffer.
struct Accumulating {
  std::string array;
  Expr alloc, sweep, value; // `value`: what the sweep's let binds, from the array
};

// The floating-point leaves of type t, as projection paths.
void floatLeaves(const TypeP &t, std::vector<int> &path, std::vector<std::vector<int>> &out) {
  if (t->isFloat()) out.push_back(path);
  if (!t->isTuple() || t->isStruct()) return;
  for (size_t k = 0; k < t->elems.size(); ++k) {
    path.push_back(int(k));
    floatLeaves(t->elems[k], path, out);
    path.pop_back();
  }
}

Expr projected(Expr e, const std::vector<int> &path) {
  for (int k : path) e = Proj::make(e, k);
  return e;
}

// Whether the state's type is tuples of floats and units only.
bool plainState(const TypeP &t) {
  if (t->isFloat() || t->isUnit()) return true;
  if (!t->isTuple() || t->isStruct()) return false;
  return std::all_of(t->elems.begin(), t->elems.end(), plainState);
}

// The leaf at `path` of a tuple literal, resolved through the body's lets.
Expr leafOf(Expr e, const std::vector<int> &path, const LetChain &body) {
  for (int k : path) {
    for (auto it = body.lets.rbegin(); it != body.lets.rend(); ++it)
      if (auto v = e->as<Var>(); v && v->name == it->first) e = it->second;
    auto t = e->as<ir::Tuple>();
    if (!t) return nullptr;
    e = t->elems[size_t(k)];
  }
  return e;
}

std::optional<Accumulating> accumulatingSweep(const Fold *f, NameSupply &names) {
  const TypeP &st = f->init->type;
  if (st->isUnit() || !plainState(st)) return std::nullopt;
  std::vector<std::vector<int>> leaves;
  std::vector<int> path;
  floatLeaves(st, path, leaves);
  if (leaves.empty()) return std::nullopt;
  // (one array: its leaves all of one type, double or float)
  const TypeP elem = projected(f->init, leaves[0])->type;
  for (auto &p : leaves)
    if (!sameType(projected(f->init, p)->type, elem)) return std::nullopt;
  LetChain body = unzipLets(f->body);
  // A leaf's value in the body: s#p itself, or a let bound to it.
  const Expr state = Var::make(f->state, st);
  std::vector<std::string> leafNames(leaves.size());
  for (auto &[name, v] : body.lets)
    for (size_t k = 0; k < leaves.size(); ++k)
      if (alphaEqual(v, projected(state, leaves[k]))) leafNames[k] = name;
  std::vector<Expr> adds;
  for (size_t k = 0; k < leaves.size(); ++k) {
    const Expr leaf = leafOf(body.tail, leaves[k], body);
    auto add = leaf ? leaf->as<Prim>() : nullptr;
    if (!add || add->op != Op::Add) return std::nullopt;
    auto isLeaf = [&](const Expr &x) {
      auto v = x->as<Var>();
      return alphaEqual(x, projected(state, leaves[k])) || (v && !leafNames[k].empty() && v->name == leafNames[k]);
    };
    const int side = isLeaf(add->args[0]) ? 0 : isLeaf(add->args[1]) ? 1 : -1;
    if (side < 0) return std::nullopt;
    adds.push_back(add->args[1 - side]);
  }
  // The state is read only through those leaves, each once (by its add),
  // and the units (no value).
  for (auto &e : adds)
    if (countUses(e, f->state) > 0) return std::nullopt;
  for (size_t k = 0; k < leaves.size(); ++k)
    if (!leafNames[k].empty() && countUses(f->body, leafNames[k]) != 1) return std::nullopt;
  for (auto &[name, v] : body.lets) {
    if (countUses(v, f->state) == 0) continue;
    if (!v->type->isUnit() && std::none_of(leafNames.begin(), leafNames.end(), [&](auto &n) { return n == name; }))
      return std::nullopt;
  }
  Accumulating out;
  out.array = names.fresh(f->state + "_sum");
  out.alloc = NewArray::make(Const::makeInt(int64_t(leaves.size())), elem);
  const Expr acc = Var::make(out.array, Type::array(elem));
  LetChain zb = unzipLets(substitute(f->body, f->state, Const::zero(st)));
  for (size_t k = 0; k < leaves.size(); ++k)
    zb.lets.push_back({names.fresh("_"), Store::make(acc, Const::makeInt(int64_t(k)), adds[k], Store::Mode::Add)});
  out.sweep = Fold::make(f->lo, f->hi, ir::Tuple::make({}), f->index, f->state, zipLets(zb.lets, ir::Tuple::make({})),
                         f->reversed);
  // init + the sums, in the state's shape
  std::function<Expr(const TypeP &, std::vector<int> &)> rebuild = [&](const TypeP &t, std::vector<int> &p) -> Expr {
    if (t->isFloat()) {
      size_t k = size_t(std::find(leaves.begin(), leaves.end(), p) - leaves.begin());
      return Prim::make(Op::Add, {projected(f->init, p), Index::make(acc, Const::makeInt(int64_t(k)))});
    }
    if (t->isUnit()) return ir::Tuple::make({});
    std::vector<Expr> elems;
    for (size_t k = 0; k < t->elems.size(); ++k) {
      p.push_back(int(k));
      elems.push_back(rebuild(t->elems[k], p));
      p.pop_back();
    }
    return ir::Tuple::make(elems);
  };
  std::vector<int> root;
  out.value = rebuild(st, root);
  return out;
}

class LoopFusion : public BlockRewriter {
public:
  LoopFusion(const Expr &root, const PassContext &context) : context_(context) { names_.reserveAll(root); }

protected:
  void chain(Lets &lets, Expr &tail) override { // only the lets are fused
    for (size_t k = 0; k < lets.size(); ++k) {
      auto f1 = lets[k].second->as<Fold>();
      if (!f1) continue;
      for (size_t m = k + 1; m < lets.size(); ++m) {
        auto f2 = lets[m].second->as<Fold>();
        // (a sweep whose state only accumulates, tried as a stateless one)
        std::optional<Accumulating> accumulating;
        Expr stateless;
        if (f2 && !f2->init->type->isUnit() && f2->reversed && alphaEqual(f1->lo, f2->lo) && alphaEqual(f1->hi, f2->hi))
          if ((accumulating = accumulatingSweep(f2, names_))) {
            stateless = accumulating->sweep;
            f2 = stateless->as<Fold>();
          }
        if (!f2 || !sweepShaped(f1, f2)) continue;
        std::vector<size_t> seeds = hoistableSeeds(lets, k, m);
        std::unordered_set<std::string> between;
        std::vector<Expr> passed; // what the sweep would move before
        for (size_t j = k; j < m; ++j)
          if (!std::count(seeds.begin(), seeds.end(), j)) {
            between.insert(lets[j].first);
            if (j > k) passed.push_back(lets[j].second);
          }
        const Owned owned = ownedArrays(lets, tail, k, m, f2);
        if (fusable(f1, f2, between, owned) && commutes(f1, f2, passed)) {
          Lets out(lets.begin(), lets.begin() + long(k));
          for (size_t j : seeds) out.push_back(lets[j]);
          if (accumulating) out.push_back({accumulating->array, accumulating->alloc});
          out.push_back({lets[k].first, ownBlocks(fuse(f1, f2), owned, out)});
          for (size_t j = k + 1; j < lets.size(); ++j)
            if (j == m && accumulating) out.push_back({lets[m].first, accumulating->value});
            else if (j != m && !std::count(seeds.begin(), seeds.end(), j)) out.push_back(lets[j]);
          lets = std::move(out);
          k += seeds.size();
          changed = true;
          break;
        }
      }
    }
    // A sweep left on its own runs forwards: its iterations commute, and
    // memory is read in the order the forward loop read it.
    for (auto &[name, value] : lets)
      if (auto f = value->as<Fold>(); f && f->reversed && f->init->type->isUnit() && commutingSweep(f->body))
        value = Fold::make(f->lo, f->hi, f->init, f->index, f->state, f->body, false);
  }

private:
  const PassContext &context_;
  NameSupply names_;

  Access access(const Expr &e) const { return accessOf(e, context_); }

  // Local arrays only the loop and its sweep touch, used by each iteration
  // on its own: left out of the checks (`each`), or tapes whose blocks are
  // the iterations' own (`blocks`).
  struct Owned {
    std::unordered_set<std::string> each;
    std::unordered_map<std::string, Expr> blocks; // (the block's length)
  };

  Owned ownedArrays(const Lets &lets, const Expr &tail, size_t k, size_t m, const Fold *f2) const {
    auto f1 = lets[k].second->as<Fold>();
    const Expr sweep = renamed(f2, f1);
    // (each let's effects once, not once per array)
    const MemoryEffects loopFx = memoryEffects(f1->body), sweepFx = memoryEffects(sweep), tailFx = memoryEffects(tail);
    std::vector<MemoryEffects> letFx(lets.size());
    for (size_t q = 0; q < lets.size(); ++q)
      if (q != k && q != m) letFx[q] = memoryEffects(lets[q].second);
    std::unordered_set<std::string> aliases = aliasedArrays(f1->body);
    for (const std::string &a : aliasedArrays(sweep)) aliases.insert(a);
    // n = `if lt(0, hi) then hi else 0`, the trip count of [0, hi), bound before the loop
    auto atMost = [&](const Expr &hi, const Expr &n) {
      if (alphaEqual(hi, n)) return true;
      auto v = n->as<Var>();
      for (size_t j = 0; v && j < k; ++j)
        if (lets[j].first == v->name) {
          auto c = lets[j].second->as<If>();
          auto lt = c ? c->cond->as<Prim>() : nullptr;
          auto zero = [](const Expr &e) { auto z = e->as<Const>(); return z && z->ivalue == 0; };
          return lt && lt->op == Op::Lt && zero(lt->args[0]) && alphaEqual(lt->args[1], hi) &&
                 alphaEqual(c->thenE, hi) && zero(c->elseE);
        }
      return false;
    };
    Owned owned;
    for (size_t j = 0; j < k; ++j) {
      auto alloc = lets[j].second->as<NewArray>();
      if (!alloc) continue;
      const std::string &a = lets[j].first;
      bool elsewhere = tailFx.touches(a) || aliases.count(a);
      for (size_t q = j + 1; q < lets.size() && !elsewhere; ++q)
        if (q != k && q != m) elsewhere = letFx[q].touches(a);
      if (elsewhere) continue;
      const bool inLoop = loopFx.touches(a), inSweep = sweepFx.touches(a);
      if ((!inLoop || rewrittenBeforeRead(f1->body, a, alloc->size)) &&
          (!inSweep || rewrittenBeforeRead(sweep, a, alloc->size)))
        owned.each.insert(a);
      else if (!alloc->scratch && !inLoop && leftZero(sweep, a, alloc->size))
        owned.each.insert(a);
      else if (Expr n, m2; inIterationBlocks(f1->body, f1->index, a, atMost, &n) &&
                           inIterationBlocks(sweep, f1->index, a, atMost, &m2) && alphaEqual(n, m2))
        owned.blocks[a] = n;
    }
    return owned;
  }

  // The arrays `e` binds another name to (or a view of): the names free in
  // a let's array-valued expression other than a fresh array.
  static std::unordered_set<std::string> aliasedArrays(const Expr &e) {
    struct Find : Visitor {
      std::unordered_set<std::string> names;
      void visit(const Let *n) override {
        if (n->value->type->isArray() && !n->value->is<NewArray>())
          for (auto &v : freeVars(n->value)) names.insert(v);
        Visitor::visit(n);
      }
    } find;
    find.visitExpr(e);
    return find.names;
  }

  // The sweep's body in the loop's variables.
  static Expr renamed(const Fold *f2, const Fold *f1) {
    Expr b = substitute(f2->body, f2->index, Var::make(f1->index, Type::i64()));
    return substitute(b, f2->state, ir::Tuple::make({}));
  }

  // The accesses of a stateless sweep, its private arrays (tapes of inner
  // loops it allocates itself) left out, when its iterations commute: it
  // only adds into arrays it does not read.
  std::optional<Access> commutingSweep(const Expr &body, const std::unordered_set<std::string> &owned = {}) const {
    Access ba = access(body);
    auto local = localArrays(body);
    local.insert(owned.begin(), owned.end());
    bool setOutside = false;
    for (auto &[arr, idx] : ba.stores)
      if (!local.count(arr) && !ba.accumulated.count(arr)) setOutside = true;
    for (auto &n : local) {
      ba.stores.erase(n);
      ba.reads.erase(n);
    }
    if ((ba.setStores && setOutside) || ba.unknownCalls) return std::nullopt;
    for (auto &[arr, idx] : ba.stores)
      if (!ba.accumulated.count(arr) || ba.reads.count(arr)) return std::nullopt;
    return ba;
  }

  // A stateless loop over the same range: a candidate sweep of f1.
  static bool sweepShaped(const Fold *f1, const Fold *f2) {
    return f2->init->type->isUnit() && alphaEqual(f1->lo, f2->lo) && alphaEqual(f1->hi, f2->hi);
  }

  bool fusable(const Fold *f1, const Fold *f2, const std::unordered_set<std::string> &between,
               const Owned &owned) const {
    for (auto &v : freeVars(f2->body))
      if (between.count(v)) return false;
    Access fa = access(f1->body);
    for (auto &a : owned.each) {
      fa.reads.erase(a);
      fa.stores.erase(a);
    }
    auto sweep = commutingSweep(renamed(f2, f1), owned.each);
    // (f_grad throws where f throws, before it adds into any adjoint)
    if (!sweep || fa.unknownCalls || fa.raises) return false;
    // The sweep adds into nothing the loop touches, ...
    for (auto &[arr, idx] : sweep->stores)
      if (fa.reads.count(arr) || fa.stores.count(arr)) return false;
    // ... and what F writes and B reads: only this iteration's entries.
    for (auto &[arr, idx] : sweep->reads) {
      auto st = fa.stores.find(arr);
      if (st == fa.stores.end() || owned.blocks.count(arr)) continue;
      for (auto &i : idx)
        if (i == "*" || !st->second.count(i) || st->second.size() != 1) return false;
    }
    return true;
  }

  // The lets between the loop at lets[k] and the sweep at lets[m] that the
  // sweep needs and that can move before the loop: loads and arithmetic the
  // loop does not affect (the seed `d_err_i = d_err[0]` of a result stored
  // to an output: `err[0] = cost; d_err_i = d_err[0]`), and what they need.
  // Nothing they move past writes an array they read.
  std::vector<size_t> hoistableSeeds(const Lets &lets, size_t k, size_t m) const {
    std::unordered_set<std::string> needed;
    for (auto &v : freeVars(lets[m].second)) needed.insert(v);
    std::vector<size_t> seeds;
    for (size_t j = m; j-- > k + 1;)
      if (needed.count(lets[j].first)) {
        seeds.insert(seeds.begin(), j);
        for (auto &v : freeVars(lets[j].second)) needed.insert(v);
      }
    if (needed.count(lets[k].first)) return {};
    const std::set<size_t> moving(seeds.begin(), seeds.end());
    std::unordered_set<std::string> stays;
    for (size_t j = k; j < m; ++j)
      if (!moving.count(j)) stays.insert(lets[j].first);
    for (size_t j : seeds) {
      const Expr &value = lets[j].second;
      Access va = access(value);
      if (!va.stores.empty() || va.unknownCalls || !va.accumulated.empty() || value->is<Fold>() ||
          value->is<While>() || value->is<Call>() || value->is<Pullback>())
        return {};
      for (auto &v : freeVars(value))
        if (stays.count(v)) return {};
      for (size_t q = k; q < j; ++q) // what it moves past
        if (!moving.count(q))
          for (auto &[arr, idx] : access(lets[q].second).stores)
            if (va.reads.count(arr) || arr == "?") return {};
    }
    return seeds;
  }

  // The sweep may move before `passed` when none of them may throw, touches
  // memory the sweep writes, or writes memory the sweep reads, but where
  // both only add into an array neither reads (+= commutes).
  bool commutes(const Fold *f1, const Fold *f2, const std::vector<Expr> &passed) const {
    Access ba = access(renamed(f2, f1));
    auto adds = [](const Access &acc, const std::string &arr) { return acc.accumulated.count(arr) && !acc.set.count(arr); };
    for (auto &e : passed) {
      Access pa = access(e);
      // (f_grad throws where f throws, before it adds into any adjoint: a
      // check after the loop keeps the sweep after it)
      if (pa.unknownCalls || pa.raises) return false;
      for (auto &[arr, idx] : pa.stores)
        if ((ba.stores.count(arr) && !(adds(pa, arr) && adds(ba, arr))) || ba.reads.count(arr)) return false;
      for (auto &[arr, idx] : pa.reads)
        if (ba.stores.count(arr)) return false;
    }
    return true;
  }

  // Once fused, each iteration reads only the tape block it wrote just
  // before: one block serves them all when the tape holds n_outer blocks
  // (allocated as n_outer * n before the loop, in `before`).
  static Expr ownBlocks(const Expr &fused, const Owned &owned, Lets &before) {
    auto f = fused->as<Fold>();
    Expr body = f->body;
    for (auto &[a, n] : owned.blocks)
      for (auto &[name, value] : before) {
        auto alloc = value->as<NewArray>();
        auto size = alloc && name == a ? alloc->size->as<Prim>() : nullptr;
        if (!size || size->op != Op::Mul || !(alphaEqual(size->args[0], n) || alphaEqual(size->args[1], n))) continue;
        value = NewArray::make(n, alloc->type->elem(), alloc->scratch);
        body = ownBlockOnly(body, f->index, a);
      }
    return body == f->body ? fused : Fold::make(f->lo, f->hi, f->init, f->index, f->state, body, f->reversed);
  }

  // The sweep's body goes right before the loop body's result.
  static Expr fuse(const Fold *f1, const Fold *f2) {
    Expr sweep = renamed(f2, f1);
    std::function<Expr(const Expr &)> beforeResult = [&](const Expr &b) -> Expr {
      if (auto l = b->as<Let>()) return Let::make(l->name, l->value, beforeResult(l->body));
      return Let::make("_" + f1->index + "_sweep", sweep, b);
    };
    return Fold::make(f1->lo, f1->hi, f1->init, f1->index, f1->state, beforeResult(f1->body), f1->reversed);
  }
};

} // namespace

Expr loopFusion(const Expr &e, const PassContext &context, bool *changed) {
  LoopFusion fusion(e, context);
  Expr r = fusion.rewrite(e);
  if (changed) *changed = fusion.changed;
  return r;
}

} // namespace unfad::opt
