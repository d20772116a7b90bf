// Liveness of local arrays: a store into a local array whose contents no
// later code reads before they are overwritten whole is dead.
//
//   saved[k] = a[k] for k;  a[k] = f(k) for k < size a;  ...a read...;
//   a[k] += g;  a[k] = saved[k] for k              (a is never read again)
//     ~>  a[k] = f(k) for k;  ...a read...
//
// The reverse sweep restores the arrays a loop body overwrote, so that each
// iteration's recomputation sees the memory of its forward iteration. Where
// the recomputation overwrites the array whole before it reads it (gmm's
// `qdiff`, refilled per point and cluster), nothing reads what the restore
// put back, and saving, logging and restoring it is work for nothing.
//
// A backward analysis over whole arrays: `dead` holds the local arrays
// whose current contents nothing after this point reads. A store into a
// dead array is dropped; a loop writing a[k] for every k in [0, size a)
// and reading nothing else of a makes a dead before it; any other read
// (an index, a call given a) makes it live. A loop body's end sees the
// next iteration's start: the greatest fixpoint, from "dead after the loop"
// downwards. A store dropped reads nothing, so a snapshot copied out and
// back in a loop is dropped with the restore that alone read it. A read
// let whose value only fed a dropped store keeps its array live for this
// round; dead-code then removes it, and the cleanup's next round finishes.
//
// Only local arrays (lets of NewArray) that never escape qualify: one
// mentioned anywhere but as the array of an index, a store or a size, or
// as an argument of a call, might be read through another name.
#include "support.h"
#include "unfad/opt/passes.h"
#include "unfad/ir/equal.h"

#include <functional>
#include <set>

namespace unfad::opt {

using namespace unfad::ir;

namespace {

using Names = std::set<std::string>;

// Local arrays and their sizes, without those that escape.
class Candidates {
public:
  explicit Candidates(const Expr &root) {
    collect(root);
    for (auto &n : escaped_) sizes.erase(n);
  }
  std::unordered_map<std::string, Expr> sizes;

private:
  Names escaped_;

  void collect(const Expr &e) {
    switch (e->kind) {
    case Kind::Var: escaped_.insert(e->as<Var>()->name); return;
    case Kind::Throw: return;
    case Kind::Resize: collectArgument(e->as<ir::Resize>()->array); collect(e->as<ir::Resize>()->size); return;
    case Kind::Let: {
      auto l = e->as<Let>();
      if (auto n = l->value->as<NewArray>()) {
        sizes[l->name] = n->size;
        collect(n->size);
      } else {
        collect(l->value);
      }
      collect(l->body);
      return;
    }
    case Kind::Index: {
      auto x = e->as<ir::Index>();
      if (!x->array->is<Var>()) collect(x->array);
      collect(x->index);
      return;
    }
    case Kind::Store: {
      auto st = e->as<Store>();
      if (!st->array->is<Var>()) collect(st->array);
      collect(st->index);
      collect(st->value);
      return;
    }
    case Kind::Size:
      if (!e->as<ir::Size>()->array->is<Var>()) collect(e->as<ir::Size>()->array);
      return;
    case Kind::Call: for (auto &a : e->as<Call>()->args) collectArgument(a); return;
    case Kind::Opaque: for (auto &a : e->as<Opaque>()->args) collectArgument(a); return;
    case Kind::Pullback: {
      auto p = e->as<Pullback>();
      for (auto &a : p->args) collectArgument(a);
      for (auto &b : p->buffers) collectArgument(b);
      collect(p->cotangent);
      return;
    }
    default: forEachChild(*e, [&](const Expr &c) { collect(c); });
    }
  }
  // An array (or a view of one) passed to a call: read there, not escaped.
  void collectArgument(const Expr &a) {
    const Expr &root = rootArray(a);
    if (root->is<Var>() && root->type->isArray()) {
      if (a != root) collect(viewOffset(a));
      return;
    }
    collect(a);
  }
};

// a ∩= b.
void keepCommon(Names &a, const Names &b) {
  for (auto it = a.begin(); it != a.end();) it = b.count(*it) ? std::next(it) : a.erase(it);
}

class DeadArrays {
public:
  explicit DeadArrays(const Expr &root) : candidates_(root) {}
  bool changed = false;

  Expr run(const Expr &root) {
    if (candidates_.sizes.empty() || hasContinuations(root)) return root;
    Names dead;
    for (auto &[n, size] : candidates_.sizes) dead.insert(n);
    return walk(root, dead, /*rewrite=*/true);
  }

private:
  Candidates candidates_;

  static bool hasContinuations(const Expr &e) {
    if (e->is<Lambda>() || e->is<App>()) return true;
    bool found = false;
    forEachChild(*e, [&](const Expr &c) { found = found || hasContinuations(c); });
    return found;
  }

  // Variables something kept reads. The walk meets a variable's uses before
  // its let (backwards); the set only grows, over the fixpoint's rounds too.
  std::unordered_set<std::string> used_;
  void noteUses(const Expr &e) {
    for (auto &n : freeVars(e)) used_.insert(n);
  }

  bool candidate(const std::string &a) const { return candidates_.sizes.count(a) != 0; }

  // The candidates e reads (Size reads no contents).
  void makeLive(const Expr &e, Names &dead) const {
    for (auto &a : memoryEffects(e).reads) dead.erase(a);
  }

  // A store into a dead candidate, computing its index and value without
  // effects: droppable.
  bool droppable(const Store *st, const Names &dead) const {
    auto a = st->array->as<Var>();
    if (!a || !dead.count(a->name)) return false;
    MemoryEffects i = memoryEffects(st->index), v = memoryEffects(st->value);
    return !i.writesMemory && !v.writesMemory && !i.calls && !v.calls;
  }

  // `for k in [0, size a): a[k] = x; ...` with nothing else in the body
  // mentioning a: the candidates the loop overwrites whole.
  Names overwrittenWhole(const Fold *f) const {
    Names whole;
    auto lo = f->lo->as<Const>();
    if (!lo || lo->ivalue != 0) return whole;
    for (Expr c = f->body; auto l = c->as<Let>(); c = l->body) {
      auto st = l->value->as<Store>();
      auto a = st ? st->array->as<Var>() : nullptr;
      if (!a || !candidate(a->name) || st->mode != Store::Mode::Set || !st->path.empty()) continue;
      if (!isLoopIndex(st->index, f->index)) continue;
      const Expr &size = candidates_.sizes.at(a->name);
      auto hiSize = f->hi->as<ir::Size>();
      bool all = alphaEqual(f->hi, size) || (hiSize && hiSize->array->is<Var>() && hiSize->array->as<Var>()->name == a->name);
      if (all && countUses(f->body, a->name) == 1) whole.insert(a->name);
    }
    return whole;
  }

  // Walks e backwards: `dead` comes in as what is dead after e and leaves as
  // what is dead before it. With `rewrite`, returns e without its dead stores.
  Expr walk(const Expr &e, Names &dead, bool rewrite) {
    switch (e->kind) {
    case Kind::Let: return walkChain(e, dead, rewrite);
    case Kind::If: {
      auto i = e->as<If>();
      Names elseDead = dead;
      Expr t = walk(i->thenE, dead, rewrite), f = walk(i->elseE, elseDead, rewrite);
      keepCommon(dead, elseDead);
      makeLive(i->cond, dead);
      noteUses(i->cond);
      return rewrite && (t != i->thenE || f != i->elseE) ? If::make(i->cond, t, f) : e;
    }
    case Kind::Fold: return walkFold(e->as<Fold>(), e, dead, rewrite);
    case Kind::While: return walkWhile(e->as<While>(), e, dead, rewrite);
    case Kind::Store: {
      // (kept: a chain drops the droppable ones before walking them)
      auto st = e->as<Store>();
      makeLive(st->index, dead);
      makeLive(st->value, dead);
      noteUses(st->index);
      noteUses(st->value);
      if (auto a = st->array->as<Var>(); a && st->mode == Store::Mode::Add) dead.erase(a->name);
      if (!st->array->is<Var>()) makeLive(st->array, dead);
      noteUses(st->array);
      return e;
    }
    default:
      makeLive(e, dead);
      noteUses(e);
      return e;
    }
  }

  Expr walkChain(const Expr &e, Names &dead, bool rewrite) {
    std::vector<const Let *> chain;
    Expr c = e;
    while (auto l = c->as<Let>()) {
      chain.push_back(l);
      c = l->body;
    }
    Expr body = walk(c, dead, rewrite);
    bool same = body == c;
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
      const Expr &v = (*it)->value;
      if (auto st = v->as<Store>(); st && droppable(st, dead)) {
        same = false;
        changed |= rewrite;
        continue;
      }
      // A let nothing kept uses (a read that only fed a dropped store):
      // it reads nothing that matters; dead-code removes it.
      if (!used_.count((*it)->name) && !mayWrite(v) && !v->is<NewArray>()) {
        if (rewrite) body = Let::make((*it)->name, v, body);
        continue;
      }
      Expr nv = walk(v, dead, rewrite);
      // A fresh array: what an earlier iteration left in its name is gone.
      if (v->is<NewArray>() && candidate((*it)->name)) dead.insert((*it)->name);
      same = same && nv == v;
      if (rewrite) body = Let::make((*it)->name, nv, body);
    }
    return rewrite && !same ? body : e;
  }

  // dead at the body's end = dead after the loop ∩ dead at the body's start.
  Names bodyEnd(const Expr &body, const Names &after, const std::function<void(Names &)> &atStart) {
    Names end = after;
    for (;;) {
      Names start = end;
      walk(body, start, /*rewrite=*/false);
      atStart(start);
      Names next = end;
      keepCommon(next, start);
      if (next == end) return end;
      end = std::move(next);
    }
  }

  Expr walkFold(const Fold *f, const Expr &e, Names &dead, bool rewrite) {
    Names whole = overwrittenWhole(f);
    Names end = bodyEnd(f->body, dead, [](Names &) {});
    Names start = end;
    Expr body = walk(f->body, start, rewrite);
    // Run no time, the loop leaves `dead` as it was: before it, dead is
    // what is dead both ways (end ⊆ dead already).
    keepCommon(dead, start);
    dead.insert(whole.begin(), whole.end());
    for (const Expr *x : {&f->lo, &f->hi, &f->init}) {
      makeLive(*x, dead);
      noteUses(*x);
    }
    return rewrite && body != f->body ? Fold::make(f->lo, f->hi, f->init, f->index, f->state, body, f->reversed) : e;
  }

  Expr walkWhile(const While *w, const Expr &e, Names &dead, bool rewrite) {
    // The condition runs before every iteration and before the exit.
    Names exit = dead;
    makeLive(w->cond, exit);
    Names end = bodyEnd(w->body, exit, [&](Names &start) { makeLive(w->cond, start); });
    Names start = end;
    Expr body = walk(w->body, start, rewrite);
    makeLive(w->cond, start);
    keepCommon(exit, start);
    dead = std::move(exit);
    makeLive(w->init, dead);
    noteUses(w->cond);
    noteUses(w->init);
    return rewrite && body != w->body ? While::make(w->init, w->state, w->cond, body) : e;
  }
};

} // namespace

Expr deadArrays(const Expr &e, const PassContext &, bool *changed) {
  DeadArrays arrays(e);
  Expr r = arrays.run(e);
  if (changed) *changed = arrays.changed;
  return r;
}

} // namespace unfad::opt
