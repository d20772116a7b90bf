// Free variables, capture-avoiding substitution and fresh names, all derived
// from the node-shape tables (traverse.h): no node kind is named here but
// the variables and let chains.
#include "unfad/ir/ir.h"
#include "unfad/ir/mutator.h"
#include "unfad/ir/traverse.h"

#include <set>
#include <unordered_map>
#include <unordered_set>

namespace unfad::ir {

// ------------------------------------------------------ free variables --

namespace {
// Counts free occurrences of variables; binders shadow.
struct FreeCounter {
  std::unordered_map<std::string, int> counts;
  std::vector<std::string> order;
  std::multiset<std::string> bound;
  void add(const std::string &n) {
    if (bound.count(n)) return;
    if (counts[n]++ == 0) order.push_back(n);
  }
  void unbind(const std::string &n) { bound.erase(bound.find(n)); }
  void count(const Expr &e) {
    if (auto v = e->as<Var>()) return add(v->name);
    if (e->is<Let>()) return countLetChain(e);
    Scope scope = scopeOf(*e);
    size_t i = 0;
    forEachChild(*e, [&](const Expr &c) {
      if (i++ == scope.firstScopedChild)
        for (auto &b : scope.binders) bound.insert(b.name);
      count(c);
    });
    for (auto &b : scope.binders) unbind(b.name);
  }
  // Along let chains with a loop, to keep recursion shallow on long programs.
  void countLetChain(const Expr &e) {
    LetChain chain = unzipLets(e);
    for (auto &[name, value] : chain.lets) {
      count(value);
      bound.insert(name);
    }
    count(chain.tail);
    for (auto &let : chain.lets) unbind(let.first);
  }
};
} // namespace

std::vector<std::string> freeVars(const Expr &e) {
  FreeCounter c;
  c.count(e);
  return c.order;
}

int countUses(const Expr &e, const std::string &name) {
  FreeCounter c;
  c.count(e);
  auto it = c.counts.find(name);
  return it == c.counts.end() ? 0 : it->second;
}

size_t size(const Expr &e) {
  struct S : Visitor {
    size_t n = 0;
    void visitExpr(const Expr &e) override { ++n; Visitor::visitExpr(e); }
  } s;
  s.visitExpr(e);
  return s.n;
}

// --------------------------------------------------------- substitution --

static std::string renamed(const std::string &n) {
  static long counter = 0;
  return n + "_r" + std::to_string(++counter);
}

namespace {
struct Subst : Mutator {
  std::string name;
  Expr value;
  std::unordered_set<std::string> fv; // free variables of value

  Expr mutate(const Expr &e) override {
    if (auto v = e->as<Var>()) return v->name == name ? value : e;
    Scope scope = scopeOf(*e);
    if (scope.binders.empty()) return mutateChildren(e);
    std::vector<Expr> kids = children(e);
    std::vector<std::string> names;
    bool shadowed = false;
    for (auto &b : scope.binders) {
      names.push_back(b.name);
      shadowed |= b.name == name;
    }
    for (size_t i = 0; i < scope.firstScopedChild; ++i) kids[i] = mutate(kids[i]);
    if (shadowed) return rebuild(e, kids, names); // `name` means the binder below it
    // A binder that would capture a free variable of `value` is renamed first.
    for (size_t k = 0; k < names.size(); ++k) {
      if (!fv.count(names[k])) continue;
      std::string fresh = renamed(names[k]);
      for (size_t i = scope.firstScopedChild; i < kids.size(); ++i)
        kids[i] = substitute(kids[i], names[k], Var::make(fresh, scope.binders[k].type));
      names[k] = fresh;
    }
    for (size_t i = scope.firstScopedChild; i < kids.size(); ++i) kids[i] = mutate(kids[i]);
    return rebuild(e, kids, names);
  }
};
} // namespace

Expr substitute(const Expr &e, const std::string &name, const Expr &value) {
  Subst s;
  s.name = name;
  s.value = value;
  for (auto &v : freeVars(value)) s.fv.insert(v);
  return s.mutate(e);
}

Expr freshened(const Expr &e, NameSupply &ns) {
  struct Freshen : Mutator {
    NameSupply *ns;
    Expr mutate(const Expr &e) override {
      Scope scope = scopeOf(*e);
      if (scope.binders.empty()) return mutateChildren(e);
      std::vector<Expr> kids = children(e);
      std::vector<std::string> names;
      for (size_t i = 0; i < scope.firstScopedChild; ++i) kids[i] = mutate(kids[i]);
      for (auto &b : scope.binders) {
        names.push_back(ns->fresh(b.name));
        for (size_t i = scope.firstScopedChild; i < kids.size(); ++i)
          kids[i] = substitute(kids[i], b.name, Var::make(names.back(), b.type));
      }
      for (size_t i = scope.firstScopedChild; i < kids.size(); ++i) kids[i] = mutate(kids[i]);
      return rebuild(e, kids, names);
    }
  } f;
  f.ns = &ns;
  return f.mutate(e);
}

// ----------------------------------------------------------- name supply --

void NameSupply::reserve(const std::string &name) { used_.insert(name); }

std::string NameSupply::fresh(const std::string &hint) {
  std::string base = hint.empty() ? "t" : hint;
  std::string n = base;
  int &k = next_[base];
  while (taken(n)) n = base + "_" + std::to_string(++k);
  reserve(n);
  return n;
}

void NameSupply::reserveAll(const Expr &e) {
  struct Reserve : Visitor {
    NameSupply *names;
    void visitExpr(const Expr &e) override {
      if (auto v = e->as<Var>()) names->reserve(v->name);
      for (auto &b : scopeOf(*e).binders) names->reserve(b.name);
      Visitor::visitExpr(e);
    }
  } reserve;
  reserve.names = this;
  reserve.visitExpr(e);
}

} // namespace unfad::ir
