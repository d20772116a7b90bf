// Dead loop state: a leaf of a fold's state that nothing after the loop
// reads, and that inside the body feeds only itself (and other such
// leaves), is handed back unchanged; the partial evaluator's invariant-state
// rule then drops it, and dead code the work that computed it.
//
//   let r = fold i .. from s = (0, 0) -> (let t = tape[i] * d in (s#0 + d, s#1 + t)) in .. r#0 ..
//     ~>  let r = fold i .. from s = (0, 0) -> (let t = .. in (s#0 + d, s#1)) in .. r#0 ..
//
// The reverse sweep carries the cotangent of every float the body reads;
// the cotangents of values no parameter depends on (a step size h = 2.0 / s
// of an integer s) are summed over the loop and never used. Their sums read
// tapes the forward sweep filled for nothing else: once the leaf goes, the
// reads go, and the tapes are write-only, which dead code removes with
// their stores.
#include "support.h"
#include "unfad/opt/passes.h"
#include "unfad/ir/equal.h"
#include "unfad/ir/mutator.h"

#include <functional>
#include <set>

namespace unfad::opt {

using namespace unfad::ir;

namespace {

using Path = std::vector<int>;

// The paths a state type's leaves sit at (a struct is one leaf).
void leafPaths(const TypeP &t, Path &at, std::vector<Path> &out) {
  if (!t->isTuple() || t->isStruct()) return out.push_back(at);
  for (int k = 0; k < int(t->elems.size()); ++k) {
    at.push_back(k);
    leafPaths(t->elems[size_t(k)], at, out);
    at.pop_back();
  }
}

bool isPrefix(const Path &p, const Path &of) {
  return p.size() <= of.size() && std::equal(p.begin(), p.end(), of.begin());
}

// The parts of variable `name` that `e` reads: the paths of its maximal
// projection chains (a bare read: the empty path, all of it).
struct PartsRead : Visitor {
  const std::string *name;
  std::vector<Path> paths;
  void visit(const Proj *n) override {
    Path path;
    const Expr *x = nullptr;
    const Proj *p = n;
    for (;;) {
      path.insert(path.begin(), p->index);
      x = &p->tuple;
      auto inner = (*x)->as<Proj>();
      if (!inner) break;
      p = inner;
    }
    if (auto v = (*x)->as<Var>(); v && v->name == *name) return paths.push_back(path);
    Visitor::visit(n);
  }
  void visit(const Var *n) override {
    if (n->name == *name) paths.push_back({});
  }
};

std::vector<Path> partsRead(const Expr &e, const std::string &name) {
  PartsRead r;
  r.name = &name;
  r.visitExpr(e);
  return r.paths;
}

// The component of a tuple literal at `path`, or null when a part of the
// way is not a literal.
Expr componentAt(Expr x, const Path &path) {
  for (int k : path) {
    auto t = x->as<ir::Tuple>();
    if (!t || t->type->isStruct()) return nullptr;
    x = t->elems[size_t(k)];
  }
  return x;
}

Expr withComponent(const Expr &x, const Path &path, size_t depth, const Expr &value) {
  if (depth == path.size()) return value;
  auto t = x->as<ir::Tuple>();
  std::vector<Expr> es = t->elems;
  es[size_t(path[depth])] = withComponent(es[size_t(path[depth])], path, depth + 1, value);
  return ir::Tuple::make(es);
}

Expr readLeaf(const std::string &state, const TypeP &t, const Path &path) {
  Expr x = Var::make(state, t);
  for (int k : path) x = Proj::make(x, k);
  return x;
}

class DeadLoopState : public BlockRewriter {
protected:
  void chain(Lets &lets, Expr &tail) override {
    for (size_t k = 0; k < lets.size(); ++k) {
      const TypeP &t = lets[k].second->type;
      if (!t->isTuple() || t->isStruct()) continue;
      std::vector<Path> usedAfter = partsRead(tail, lets[k].first);
      for (size_t j = k + 1; j < lets.size(); ++j)
        for (auto &p : partsRead(lets[j].second, lets[k].first)) usedAfter.push_back(p);
      if (Expr g = resultFolds(lets[k].second, usedAfter)) {
        lets[k].second = g;
        changed = true;
      }
    }
  }

private:
  // `value` with the dead leaves of the folds whose result it is handed
  // back unchanged (a fold, or one in an arm of an `if` or at the end of a
  // let chain: the reverse sweep skips a loop whose cotangent is zero with
  // `if d != 0 then fold .. else init`), or null when it has none.
  static Expr resultFolds(const Expr &value, const std::vector<Path> &usedAfter) {
    if (auto f = value->as<Fold>()) return withoutDeadLeaves(*f, usedAfter);
    if (auto i = value->as<If>()) {
      Expr a = resultFolds(i->thenE, usedAfter), b = resultFolds(i->elseE, usedAfter);
      if (!a && !b) return nullptr;
      return If::make(i->cond, a ? a : i->thenE, b ? b : i->elseE);
    }
    if (auto l = value->as<Let>()) { // (the lets before the end cannot read it)
      Expr body = resultFolds(l->body, usedAfter);
      return body ? Let::make(l->name, l->value, body) : nullptr;
    }
    return nullptr;
  }

  // The fold with its dead leaves handed back unchanged, or null when it
  // has none.
  static Expr withoutDeadLeaves(const Fold &f, const std::vector<Path> &usedAfter) {
    const TypeP &st = f.init->type;
    std::vector<Path> leaves;
    Path root;
    leafPaths(st, root, leaves);
    LetChain body = unzipLets(f.body);
    std::vector<bool> live(leaves.size(), false);
    std::set<std::string> liveLets;
    std::vector<Expr> work; // expressions whose reads are live
    auto markPath = [&](const Path &p) {
      for (size_t l = 0; l < leaves.size(); ++l)
        if (!live[l] && (isPrefix(p, leaves[l]) || isPrefix(leaves[l], p))) {
          live[l] = true;
          Expr c = componentAt(body.tail, leaves[l]);
          work.push_back(c ? c : body.tail); // (not a literal: all of the tail)
        }
    };
    for (auto &p : usedAfter) markPath(p);
    // Leaves the tail does not spell out leaf by leaf are kept.
    for (size_t l = 0; l < leaves.size(); ++l)
      if (!componentAt(body.tail, leaves[l])) markPath(leaves[l]);
    for (auto &[name, value] : body.lets)
      if (mayWrite(value)) work.push_back(value);
    std::unordered_map<std::string, const Expr *> defs;
    for (auto &[name, value] : body.lets) defs[name] = &value;
    while (!work.empty()) {
      Expr e = work.back();
      work.pop_back();
      for (auto &p : partsRead(e, f.state)) markPath(p);
      for (auto &v : freeVars(e))
        if (auto d = defs.find(v); d != defs.end() && liveLets.insert(v).second) work.push_back(*d->second);
    }
    Expr newTail = body.tail;
    bool any = false;
    for (size_t l = 0; l < leaves.size(); ++l) {
      if (live[l]) continue;
      Expr same = readLeaf(f.state, st, leaves[l]);
      if (alphaEqual(componentAt(newTail, leaves[l]), same)) continue;
      newTail = withComponent(newTail, leaves[l], 0, same);
      any = true;
    }
    if (!any) return nullptr;
    Expr newBody = newTail;
    for (auto it = body.lets.rbegin(); it != body.lets.rend(); ++it) newBody = Let::make(it->first, it->second, newBody);
    return Fold::make(f.lo, f.hi, f.init, f.index, f.state, newBody, f.reversed);
  }
};

} // namespace

Expr deadLoopState(const Expr &e, const PassContext &, bool *changed) {
  DeadLoopState pass;
  Expr r = pass.rewrite(e);
  if (changed) *changed = pass.changed;
  return r;
}

} // namespace unfad::opt
