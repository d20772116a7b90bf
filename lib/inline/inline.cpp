#include "unfad/inline/inline.h"

#include "unfad/ir/effects.h"
#include "unfad/ir/mutator.h"
#include "unfad/ir/traverse.h"

#include <functional>
#include <map>
#include <set>

namespace unfad::inlining {

using namespace ir;

namespace {

// Bodies larger than this stay calls (the copy would be bigger than the
// per-iteration save it avoids is worth).
constexpr size_t kMaxInlinedSize = 400;

// Loop-free helpers this small are inlined where a loop calls them (see
// inlineSmallHelpers).
constexpr size_t kMaxSmallHelperSize = 120;

class Inliner : public Mutator {
public:
  // `only`: when given, just these call nodes are inlined.
  Inliner(const std::map<std::string, const Function *> &inlinable, const std::map<std::string, Expr> &bodies, NameSupply &ns,
          const std::set<const Call *> *only = nullptr)
      : inlinable_(inlinable), bodies_(bodies), ns_(ns), only_(only) {}

protected:
  const std::map<std::string, const Function *> &inlinable_;
  const std::map<std::string, Expr> &bodies_;
  NameSupply &ns_;
  const std::set<const Call *> *only_;

  Expr visit(const Call *n, const Expr &self) override {
    bool changed = false;
    std::vector<Expr> args = mutateAll(n->args, changed);
    auto it = inlinable_.find(n->callee);
    if (it == inlinable_.end() || (only_ && !only_->count(n))) return changed ? Call::make(n->callee, args, n->type) : self;
    const Function &g = *it->second;
    // parameters: arrays are the caller's buffers; values are let-bound
    // (evaluated once, in argument order, as the call would)
    Expr body = freshened(bodies_.at(g.name), ns_); // (the copy must not capture the caller's names)
    // parameters renamed to fresh names first: an argument may mention a
    // caller's variable named like another parameter
    std::vector<std::string> fresh;
    for (auto &p : g.params) {
      fresh.push_back(ns_.fresh(p.name));
      body = substitute(body, p.name, Var::make(fresh.back(), p.type));
    }
    std::vector<std::pair<std::string, Expr>> binds;
    for (size_t k = 0; k < g.params.size(); ++k) {
      if (g.params[k].type->isArray()) body = substitute(body, fresh[k], args[k]);
      else binds.push_back({fresh[k], args[k]});
    }
    for (size_t k = binds.size(); k-- > 0;) body = Let::make(binds[k].first, binds[k].second, body);
    return body;
  }
};

// Helpers called somewhere with one array in two arguments, one written
// (`shift(a, a + 1, n)`): their pullbacks assume distinct arrays, so such
// calls are inlined, and reverse mode sees the stores as they happen.
std::set<std::string> calledWithAliases(const Program &p) {
  struct Calls : Visitor {
    const Program *p;
    std::set<std::string> aliased;
    void visit(const Call *c) override {
      const Function *g = p->find(c->callee);
      for (size_t j = 0; g && j < c->args.size(); ++j)
        for (size_t k = j + 1; k < c->args.size(); ++k) {
          auto a = rootArray(c->args[j])->as<Var>(), b = rootArray(c->args[k])->as<Var>();
          if (a && b && a->name == b->name && c->args[j]->type->isArray() &&
              (g->params[j].written || g->params[k].written))
            aliased.insert(c->callee);
        }
      Visitor::visit(c);
    }
  } calls;
  calls.p = &p;
  for (auto &f : p.functions) calls.visitExpr(f.body);
  return calls.aliased;
}

// The calls of a function's body by where they run: once (outside its
// loops) or per iteration (in a Fold, While, Build or Sum body, or a
// while's condition).
struct CallsByPlace : Visitor {
  std::vector<const Call *> once, inLoops;
  int loopDepth = 0;
  void visit(const Call *c) override {
    (loopDepth ? inLoops : once).push_back(c);
    Visitor::visit(c);
  }
  void visit(const Fold *n) override { visitExpr(n->lo), visitExpr(n->hi), visitExpr(n->init), repeated(n->body); }
  void visit(const While *n) override { visitExpr(n->init), repeated(n->cond), repeated(n->body); }
  void visit(const Build *n) override { visitExpr(n->size), repeated(n->body); }
  void visit(const Sum *n) override { visitExpr(n->lo), visitExpr(n->hi), repeated(n->body); }
  void repeated(const Expr &e) {
    ++loopDepth;
    visitExpr(e);
    --loopDepth;
  }
};

std::set<std::string> recursiveIn(const Program &p) {
  std::vector<const Function *> all;
  for (auto &f : p.functions) all.push_back(&f);
  return recursiveFunctions(all);
}

} // namespace

// The call sites of each function in the code a marked function runs: its
// body and the bodies of the helpers it reaches. (A helper called once by
// this gradient's code is inlined into it even when another marked
// function also calls it: each gradient gets its own copy, as the
// thin-wrapper shape `f(x) { return lib::f(x); }` needs.)
static std::map<std::string, int> reachableCallSites(const Program &p, const Function &marked) {
  std::map<std::string, int> sites;
  struct Count : Visitor {
    std::map<std::string, int> *sites;
    void visit(const Call *c) override {
      ++(*sites)[c->callee];
      Visitor::visit(c);
    }
  } count;
  count.sites = &sites;
  std::set<std::string> seen{marked.name};
  std::vector<const Function *> work{&marked};
  while (!work.empty()) {
    const Function *f = work.back();
    work.pop_back();
    count.visitExpr(f->body);
    for (auto &c : ir::callees(f->body))
      if (const Function *g = p.find(c); g && !g->marked && seen.insert(c).second) work.push_back(g);
  }
  return sites;
}

// One round: the calls of the marked functions' own bodies.
static Program inlineSingleCallsOnce(const Program &p, bool &changed) {
  const std::set<std::string> recursive = recursiveIn(p);
  Program out = p;
  for (auto &f : out.functions) {
    if (!f.marked) continue;
    std::map<std::string, int> sites = reachableCallSites(p, f);
    CallsByPlace calls;
    calls.visitExpr(f.body);
    std::map<std::string, const Function *> inlinable;
    std::map<std::string, Expr> bodies;
    std::set<const Call *> only;
    std::vector<const Call *> candidates = calls.once;
    candidates.insert(candidates.end(), calls.inLoops.begin(), calls.inLoops.end());
    for (const Call *c : candidates) {
      const Function *g = p.find(c->callee);
      // (a function with the user's derivative has only a stand-in body)
      if (!g || g->marked || g->cxx.standIn() || recursive.count(g->name) || sites[g->name] != 1) continue;
      inlinable[g->name] = g;
      bodies[g->name] = g->body;
      only.insert(c);
    }
    if (only.empty()) continue;
    NameSupply ns;
    ns.reserveAll(f.body);
    for (auto &q : f.params) ns.reserve(q.name);
    for (auto &[name, b] : bodies) ns.reserveAll(b);
    f.body = Inliner(inlinable, bodies, ns, &only).mutate(f.body);
    changed = true;
  }
  return out;
}

// Rounds until none inlines: an inlined helper's own single calls (a
// model's `logsumexp`) are the marked function's next.
Program inlineSingleCalls(const Program &p) {
  Program out = p;
  for (bool changed = true; changed;) {
    changed = false;
    out = inlineSingleCallsOnce(out, changed);
  }
  return out;
}

// Every call to a function of `inlinable` (none recursive) replaced by its
// body, in every function; the inlinable bodies first get their own calls
// to inlinable functions inlined (callees first).
static Program inlineEverywhere(const Program &p, const std::map<std::string, const Function *> &inlinable,
                                bool onlyInLoops = false) {
  if (inlinable.empty()) return p;
  std::map<std::string, std::set<std::string>> callees;
  for (auto &f : p.functions)
    for (auto &c : ir::callees(f.body)) callees[f.name].insert(c);
  std::map<std::string, Expr> bodies;
  std::function<void(const Function &)> prepare = [&](const Function &f) {
    if (bodies.count(f.name)) return;
    bodies[f.name] = f.body; // (no recursion among inlinable helpers)
    for (auto &c : callees[f.name])
      if (auto it = inlinable.find(c); it != inlinable.end()) prepare(*it->second);
    NameSupply ns;
    ns.reserveAll(f.body);
    for (auto &q : f.params) ns.reserve(q.name);
    bodies[f.name] = Inliner(inlinable, bodies, ns).mutate(f.body);
  };
  for (auto &[name, f] : inlinable) prepare(*f);
  Program out = p;
  for (auto &f : out.functions) {
    NameSupply ns;
    ns.reserveAll(f.body);
    for (auto &q : f.params) ns.reserve(q.name);
    for (auto &[name, b] : bodies) ns.reserveAll(b); // the copies' names stay distinct from the caller's
    CallsByPlace calls;
    if (onlyInLoops) calls.visitExpr(f.body);
    const std::set<const Call *> inLoops(calls.inLoops.begin(), calls.inLoops.end());
    f.body = Inliner(inlinable, bodies, ns, onlyInLoops ? &inLoops : nullptr).mutate(f.body);
  }
  return out;
}

// (Helpers with loops stay calls: their pullbacks keep the program's
// structure, and a call costs little next to the loop it runs.)
static bool hasLoop(const Expr &e) {
  struct Find : Visitor {
    bool found = false;
    void visit(const Fold *) override { found = true; }
    void visit(const While *) override { found = true; }
    void visit(const Build *) override { found = true; }
    void visit(const Sum *) override { found = true; }
  } find;
  find.visitExpr(e);
  return find.found;
}

Program inlineArrayWriters(const Program &p) {
  const std::set<std::string> recursive = recursiveIn(p);
  std::set<std::string> aliased = calledWithAliases(p);
  std::map<std::string, const Function *> inlinable;
  for (auto &f : p.functions) {
    bool writes = false;
    for (auto &q : f.params) writes |= q.type->isArray() && q.written;
    if (writes && !f.cxx.standIn() && !recursive.count(f.name) &&
        (size(f.body) <= kMaxInlinedSize || aliased.count(f.name)))
      inlinable[f.name] = &f;
  }
  return inlineEverywhere(p, inlinable);
}

Program inlinePrinters(const Program &p) {
  const std::set<std::string> recursive = recursiveIn(p);
  std::map<std::string, const Function *> inlinable;
  for (auto &f : p.functions)
    if (!f.cxx.standIn() && !recursive.count(f.name) && memoryEffects(f.body, &p).prints)
      inlinable[f.name] = &f;
  return inlineEverywhere(p, inlinable);
}

Program inlineSmallHelpers(const Program &p) {
  const std::set<std::string> recursive = recursiveIn(p);
  std::map<std::string, const Function *> inlinable;
  for (auto &f : p.functions)
    if (!f.marked && !f.cxx.standIn() && !recursive.count(f.name) && size(f.body) <= kMaxSmallHelperSize && !hasLoop(f.body))
      inlinable[f.name] = &f;
  return inlineEverywhere(p, inlinable, /*onlyInLoops=*/true);
}

Program inlineAll(const Program &p) {
  const std::set<std::string> recursive = recursiveIn(p);
  std::map<std::string, const Function *> inlinable;
  for (auto &f : p.functions)
    if (!f.cxx.standIn() && !recursive.count(f.name)) inlinable[f.name] = &f;
  return inlineEverywhere(p, inlinable);
}

} // namespace unfad::inlining
