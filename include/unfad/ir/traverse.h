// The shape of every node kind, in one place: its children (in evaluation
// order), the names it binds and which children see them, and how to rebuild
// it from new children. Every generic traversal (Visitor, Mutator, free
// variables, substitution, alpha-equivalence, name reservation) is derived
// from these tables, so adding a node kind means adding one case to each of
// the three switches below, and the compiler points at each of them.
//
// This header must stay free of Clang and LLVM headers.
#pragma once

#include "unfad/ir/ir.h"

#include <set>
#include <string>
#include <utility>
#include <vector>

namespace unfad::ir {

// Calls `visit(child)` for each child of `n`, in evaluation order.
template <class F> void forEachChild(const Node &n, F &&visit) {
  switch (n.kind) {
  case Kind::Const:
  case Kind::Var: return;
  case Kind::Throw:
    for (auto &a : static_cast<const Throw &>(n).args) visit(a);
    return;
  case Kind::Effect:
    for (auto &a : static_cast<const Effect &>(n).args) visit(a);
    return;
  case Kind::Prim:
    for (auto &a : static_cast<const Prim &>(n).args) visit(a);
    return;
  case Kind::Let: {
    auto &l = static_cast<const Let &>(n);
    visit(l.value);
    visit(l.body);
    return;
  }
  case Kind::If: {
    auto &i = static_cast<const If &>(n);
    visit(i.cond);
    visit(i.thenE);
    visit(i.elseE);
    return;
  }
  case Kind::Tuple:
    for (auto &e : static_cast<const Tuple &>(n).elems) visit(e);
    return;
  case Kind::Proj: visit(static_cast<const Proj &>(n).tuple); return;
  case Kind::Call:
    for (auto &a : static_cast<const Call &>(n).args) visit(a);
    return;
  case Kind::Opaque:
    for (auto &a : static_cast<const Opaque &>(n).args) visit(a);
    return;
  case Kind::Pullback: {
    auto &p = static_cast<const Pullback &>(n);
    for (auto &a : p.args) visit(a);
    visit(p.cotangent);
    for (auto &b : p.buffers) visit(b);
    return;
  }
  case Kind::Lambda: visit(static_cast<const Lambda &>(n).body); return;
  case Kind::App: {
    auto &a = static_cast<const App &>(n);
    visit(a.fn);
    for (auto &x : a.args) visit(x);
    return;
  }
  case Kind::Index: {
    auto &x = static_cast<const Index &>(n);
    visit(x.array);
    visit(x.index);
    return;
  }
  case Kind::Size: visit(static_cast<const Size &>(n).array); return;
  case Kind::NewArray: visit(static_cast<const NewArray &>(n).size); return;
  case Kind::Store: {
    auto &s = static_cast<const Store &>(n);
    visit(s.array);
    visit(s.index);
    visit(s.value);
    return;
  }
  case Kind::Fold: {
    auto &f = static_cast<const Fold &>(n);
    visit(f.lo);
    visit(f.hi);
    visit(f.init);
    visit(f.body);
    return;
  }
  case Kind::While: {
    auto &w = static_cast<const While &>(n);
    visit(w.init);
    visit(w.cond);
    visit(w.body);
    return;
  }
  case Kind::Build: {
    auto &b = static_cast<const Build &>(n);
    visit(b.size);
    visit(b.body);
    return;
  }
  case Kind::Sum: {
    auto &s = static_cast<const Sum &>(n);
    visit(s.lo);
    visit(s.hi);
    visit(s.body);
    return;
  }
  case Kind::View: {
    auto &v = static_cast<const View &>(n);
    visit(v.array);
    visit(v.offset);
    return;
  }
  case Kind::Resize: {
    auto &r = static_cast<const Resize &>(n);
    visit(r.array);
    visit(r.size);
    return;
  }
  }
}

// The children of `e`, in evaluation order.
std::vector<Expr> children(const Expr &e);

// The names a node binds (with their types) and the children that see them.
// Binders always scope a suffix of the children: a let's body, a loop's
// condition and body, a lambda's body.
struct Scope {
  std::vector<Binder> binders;
  size_t firstScopedChild = 0; // children [firstScopedChild, end) see the binders
  bool sees(size_t child) const { return !binders.empty() && child >= firstScopedChild; }
};
Scope scopeOf(const Node &n);

// `e` rebuilt with new children (in `children()` order) and, when `binders`
// is non-empty, new binder names (in `scopeOf().binders` order). Returns `e`
// itself when nothing changed.
Expr rebuild(const Expr &e, const std::vector<Expr> &newChildren, const std::vector<std::string> &binders = {});

// A let chain `let x1 = v1 in ... let xn = vn in tail`, flattened. Long
// chains are walked with a loop, never by recursion along the bodies.
struct LetChain {
  std::vector<std::pair<std::string, Expr>> lets;
  Expr tail;
};
LetChain unzipLets(const Expr &e);
Expr zipLets(const std::vector<std::pair<std::string, Expr>> &lets, Expr tail);

// The functions `e` calls or takes the pullback of, once each, in order of
// first occurrence.
std::vector<std::string> callees(const Expr &e);

// The names bound anywhere inside `e` (lets, loop indices and states, ...).
std::set<std::string> boundNames(const Expr &e);

// The functions among `fns` that reach themselves through calls (recursive,
// directly or not).
std::set<std::string> recursiveFunctions(const std::vector<const Function *> &fns);

} // namespace unfad::ir
