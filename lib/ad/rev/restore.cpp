// Local memory kept and put back. The reverse sweep recomputes loop bodies
// and branches from the memory they started from, so what later code
// overwrote in a local array is kept before it is overwritten: the
// elements single stores overwrite (in tapes, one entry per iteration), or
// the whole array (a snapshot). The J^T puts it back, last write first.
#include "reverser.h"
#include "unfad/ir/mutator.h"
#include "unfad/ir/effects.h"
#include "unfad/ir/equal.h"
#include "unfad/ir/traverse.h"

#include <algorithm>

#include <functional>

namespace unfad::ad::rev {

using namespace unfad::ir;

// Local arrays (by name) that forward code reads and writes; a call given
// an array reads it and writes it if the callee writes that parameter.
void Reverser::localArrays(const Expr &e, std::set<std::string> &read, std::set<std::string> &written) {
  struct Accesses : Visitor {
    Reverser *self;
    std::set<std::string> *read, *written;
    void add(std::set<std::string> *s, const Expr &a) {
      if (auto v = rootArray(a)->as<Var>(); v && self->sizes_.count(v->name)) s->insert(v->name);
    }
    void visit(const Index *n) override {
      add(read, n->array);
      Visitor::visit(n);
    }
    void visit(const Store *n) override {
      add(written, n->array);
      if (n->mode == Store::Mode::Add) add(read, n->array); // a[i] += v reads a[i]
      visitExpr(n->index);
      visitExpr(n->value);
    }
    void visit(const Resize *n) override { // (keeps the elements below its size: reads them too)
      add(written, n->array);
      add(read, n->array);
      visitExpr(n->size);
    }
    void visit(const Call *n) override {
      const Function *g = self->prog_.find(n->callee);
      for (size_t k = 0; k < n->args.size(); ++k) {
        if (!n->args[k]->type->isArray()) continue;
        add(read, n->args[k]);
        if (!g || g->params[k].written) add(written, n->args[k]);
      }
      Visitor::visit(n);
    }
  } accesses;
  accesses.self = this;
  accesses.read = &read;
  accesses.written = &written;
  accesses.visitExpr(e);
}

// Whether a loop body stores every element of the local `array` before it
// first reads it (a scratch buffer the iteration fills, as `k1` of a
// Runge-Kutta step): what the iteration found there is never read, so it
// needs no saving per iteration (a copy from before the loop still puts
// it back after). Proved on the body's top-level lets: stores at constant
// indices and loops storing `array[i]` at their index `i` (reading nothing
// of it) cover intervals; the first other access must find [0, length)
// covered.
bool Reverser::rewritesBeforeReading(const Expr &body, const std::string &array) const {
  auto length = sizes_.find(array);
  if (length == sizes_.end() || !length->second) return false;
  std::unordered_map<std::string, Expr> scalars; // pure scalar lets so far, by name
  auto resolve = [&](Expr e) {
    for (int round = 0; round < 4; ++round)
      for (auto &v : freeVars(e))
        if (auto it = scalars.find(v); it != scalars.end()) e = substitute(e, v, it->second);
    return e;
  };
  auto touches = [&](const Expr &e) {
    std::set<std::string> read, written;
    const_cast<Reverser *>(this)->localArrays(e, read, written);
    return read.count(array) || written.count(array);
  };
  auto storeTo = [&](const Expr &e) -> const Store * {
    auto s = e->as<Store>();
    auto v = s ? s->array->as<Var>() : nullptr;
    return v && v->name == array && s->mode == Store::Mode::Set && s->path.empty() ? s : nullptr;
  };
  std::vector<std::pair<Expr, Expr>> covered; // [lo, hi) intervals
  auto covers = [&](Expr lo, const Expr &hi) {
    for (bool merged = true; merged;) {
      merged = false;
      for (auto &[l, h] : covered)
        if (alphaEqual(h, lo)) {
          lo = l;
          merged = true;
        }
    }
    auto zero = lo->as<Const>();
    return zero && zero->ivalue == 0 && alphaEqual(hi, resolve(length->second));
  };
  LetChain chain = unzipLets(body);
  for (auto &[name, value] : chain.lets) {
    if (auto s = storeTo(value)) {
      auto k = resolve(s->index)->as<Const>();
      if (!k || touches(s->value)) return false;
      covered.push_back({Const::makeInt(k->ivalue), Const::makeInt(k->ivalue + 1)});
      continue;
    }
    // (a loop with a state of its own, as a running sum feeding the stores,
    // covers the same interval: the state is no memory)
    if (auto f = value->as<Fold>(); f && !touches(f->init) && !touches(f->lo) && !touches(f->hi)) {
      LetChain inner = unzipLets(f->body);
      bool sweep = false, other = false;
      for (auto &[n, v] : inner.lets) {
        if (auto s = storeTo(v); s && !sweep && alphaEqual(s->index, Var::make(f->index, Type::i64())) &&
                                 !touches(s->value))
          sweep = true;
        else if (touches(v))
          other = true;
      }
      if (sweep && !other && !touches(inner.tail)) {
        covered.push_back({resolve(f->lo), resolve(f->hi)});
        if (covers(resolve(f->lo), resolve(f->hi))) return true;
        continue;
      }
    }
    if (touches(value)) {
      auto full = std::find_if(covered.begin(), covered.end(), [&](auto &c) { return covers(c.first, c.second); });
      return full != covered.end();
    }
    if (value->type->isScalar() && !memoryEffects(value).readsMemory) scalars[name] = value;
  }
  return false;
}

// Whether no top-level let of a loop body writes `array` after one read it:
// then nothing in the iteration reads what a write other than the last one
// left there, and the J^T of a write need not put back what it overwrote
// (the iteration's earlier code never reads it).
bool Reverser::writesBeforeReads(const Expr &body, const std::string &array) {
  bool read = false;
  for (auto &[name, value] : unzipLets(body).lets) {
    std::set<std::string> reads, writes;
    localArrays(value, reads, writes);
    if (writes.count(array) && (read || reads.count(array))) return false;
    read = read || reads.count(array);
  }
  return true;
}

// Forward code `e` of a loop body with every store to `array` preceded by
//   let old = array[i]; index_k[at] = i; old_k[at] = old
// (sites in program order, which is the order of execution on every path).
// A store at the loop's own index (`loopIndex`, unguarded) needs no index
// tape: the J^T's iteration knows it. Null when `array` is also written
// otherwise (in a nested loop, by a call).
Expr Reverser::tapeOverwrites(const Expr &e, const Expr &array, const Expr &n, const Expr &at, Lets &lets,
                              Lets &iterationStart, std::vector<UndoSite> &sites, const Expr &loopIndex) {
  const std::string &a = array->as<Var>()->name;
  bool ok = true;
  std::vector<UndoSite> found;
  Lets tapes, starts;
  std::function<Expr(const Expr &, bool)> instrument = [&](const Expr &code, bool guarded) -> Expr {
    if (auto let = code->as<Let>()) {
      if (auto write = let->value->as<Store>(); write && write->array->is<Var>() && write->array->as<Var>()->name == a) {
        const bool atLoopIndex = !guarded && loopIndex && alphaEqual(write->index, loopIndex);
        UndoSite site{atLoopIndex ? nullptr : bind(tapes, "tape_" + a + "_index", NewArray::make(n, Type::i64(), true)),
                      bind(tapes, "tape_" + a + "_old", NewArray::make(n, array->type->elem(), true)), guarded,
                      atLoopIndex};
        if (guarded) bind(starts, "_", Store::make(site.index, at, Const::makeInt(-1), Store::Mode::Set));
        found.push_back(site);
        std::string old = fresh("old_" + a);
        Expr rest = Let::make(let->name, let->value, instrument(let->body, guarded));
        rest = Let::make(fresh("_"), Store::make(site.old, at, Var::make(old, array->type->elem()), Store::Mode::Set), rest);
        if (!atLoopIndex) rest = Let::make(fresh("_"), Store::make(site.index, at, write->index, Store::Mode::Set), rest);
        return Let::make(old, Index::make(array, write->index), rest);
      }
      Expr value = instrument(let->value, guarded); // (its sites come first)
      return Let::make(let->name, value, instrument(let->body, guarded));
    }
    if (auto conditional = code->as<If>()) {
      if (writesTo(code, a) == 0) return code;
      Expr thenE = instrument(conditional->thenE, true), elseE = instrument(conditional->elseE, true);
      return If::make(conditional->cond, thenE, elseE);
    }
    if (writesTo(code, a) > 0) ok = false;
    return code;
  };
  Expr out = instrument(e, false);
  if (!ok || found.empty()) return nullptr;
  lets.insert(lets.end(), tapes.begin(), tapes.end());
  iterationStart.insert(iterationStart.end(), starts.begin(), starts.end());
  sites = found;
  return out;
}

// Puts back what the stores of `sites` overwrote (tape entry `at`, the
// J^T's iteration `loopIndex`), last first; a store in a branch not taken
// (index -1) is skipped.
void Reverser::undoStores(const Expr &array, const std::vector<UndoSite> &sites, const Expr &at, Lets &out,
                          const Expr &loopIndex) {
  for (auto site = sites.rbegin(); site != sites.rend(); ++site) {
    if (site->atLoopIndex && !loopIndex) throw IRError("reverse: an undo tape without indices outside its loop");
    Expr k = site->atLoopIndex ? loopIndex : bind(out, "k", Index::make(site->index, at));
    Expr undo = Store::make(array, k, Index::make(site->old, at), Store::Mode::Set);
    if (site->guarded)
      undo = If::make(Prim::make(Op::Ge, {k, Const::makeInt(0)}), Let::make(fresh("_"), undo, ir::Tuple::make({})),
                      ir::Tuple::make({}));
    bind(out, "_", undo);
  }
}

// How many places in forward code `e` may write `array` (stores, and calls
// given it where the callee writes that parameter; a callee may write it
// anywhere, so such a call counts as many).
size_t Reverser::writesTo(const Expr &e, const std::string &array) const {
  struct Writes : Visitor {
    const std::string *array;
    const Program *prog;
    size_t count = 0;
    bool isArray(const Expr &x) const {
      auto v = rootArray(x)->as<Var>(); // a view writes its array
      return v && v->name == *array;
    }
    void visit(const Store *s) override {
      count += isArray(s->array);
      Visitor::visit(s);
    }
    void visit(const Resize *r) override { // (every element: a copy, never single entries)
      if (isArray(r->array)) count += 1000;
      Visitor::visit(r);
    }
    void visit(const Call *c) override {
      const Function *g = prog->find(c->callee);
      for (size_t k = 0; k < c->args.size(); ++k)
        if (isArray(c->args[k]) && (!g || k >= g->params.size() || g->params[k].written)) count += 1000;
      Visitor::visit(c);
    }
  } writes;
  writes.array = &array;
  writes.prog = &prog_;
  writes.visitExpr(e);
  return writes.count;
}

// Copies of the local arrays (slots of `stack`) in `names`, taken now.
ArrayCopies Reverser::snapshot(const std::set<std::string> &names, const Stack &stack, Lets &lets) {
  ArrayCopies out;
  for (auto &a : names)
    if (Expr array = arrayNamed(a, stack)) {
      Expr len = lengthOf(a);
      Expr copy = bind(lets, "saved_" + a, NewArray::make(len, array->type->elem(), true));
      bind(lets, "_", copyLoop(copy, Const::makeInt(0), array, Const::makeInt(0), len));
      out.push_back({array, copy});
    }
  return out;
}

// The slot value that is the array variable `name`, or null.
Expr Reverser::arrayNamed(const std::string &name, const Stack &stack) {
  for (auto &slot : stack)
    if (auto v = slot.value->as<Var>(); v && v->name == name) return slot.value;
  return nullptr;
}

void Reverser::restore(const ArrayCopies &copies, Lets &lets) {
  for (auto &[array, copy] : copies)
    bind(lets, "_", copyLoop(array, Const::makeInt(0), copy, Const::makeInt(0), lengthOf(array->as<Var>()->name)));
}

// A whole copy of an in/out pointer parameter cannot be made: the front end
// refuses what it can see needs one (a recursive helper writing it, a
// while loop rewriting it); this is the backstop for anything it missed.
Expr Reverser::lengthOf(const std::string &array) const {
  Expr len = sizes_.at(array);
  if (!len)
    throw IRError("reverse: the in/out array '" + array +
                  "' would need a whole copy, and its length is unknown (a pointer parameter); pass a std::vector");
  return len;
}

// fold k in [0, len): dst[dstOffset + k] = src[srcOffset + k]
Expr Reverser::copyLoop(const Expr &dst, const Expr &dstOffset, const Expr &src, const Expr &srcOffset, const Expr &len) {
  std::string k = fresh("k"), unit = fresh("copy");
  Expr kv = Var::make(k, Type::i64());
  Expr st = Store::make(dst, Prim::make(Op::Add, {dstOffset, kv}), Index::make(src, Prim::make(Op::Add, {srcOffset, kv})),
                        Store::Mode::Set);
  return Fold::make(Const::makeInt(0), len, ir::Tuple::make({}), k, unit, Let::make(fresh("_"), st, ir::Tuple::make({})));
}

} // namespace unfad::ad::rev
