// The node-shape tables (children, binders, rebuilding) and the let-chain
// and callee helpers built on them.
#include "unfad/ir/traverse.h"
#include "unfad/ir/mutator.h"

#include <map>
#include <unordered_set>

namespace unfad::ir {

std::vector<Expr> children(const Expr &e) {
  std::vector<Expr> out;
  forEachChild(*e, [&](const Expr &c) { out.push_back(c); });
  return out;
}

Scope scopeOf(const Node &n) {
  switch (n.kind) {
  case Kind::Const:
  case Kind::Var:
  case Kind::Prim:
  case Kind::If:
  case Kind::Tuple:
  case Kind::Proj:
  case Kind::Call:
  case Kind::Opaque:
  case Kind::Throw:
  case Kind::Effect:
  case Kind::Resize:
  case Kind::Pullback:
  case Kind::App:
  case Kind::Index:
  case Kind::Size:
  case Kind::NewArray:
  case Kind::Store:
  case Kind::View: return {};
  case Kind::Let: {
    auto &l = static_cast<const Let &>(n);
    return {{{l.name, l.value->type}}, 1};
  }
  case Kind::Lambda: return {static_cast<const Lambda &>(n).params, 0};
  case Kind::Fold: {
    auto &f = static_cast<const Fold &>(n);
    return {{{f.index, Type::i64()}, {f.state, f.init->type}}, 3};
  }
  case Kind::While: {
    auto &w = static_cast<const While &>(n);
    return {{{w.state, w.init->type}}, 1};
  }
  case Kind::Build: return {{{static_cast<const Build &>(n).index, Type::i64()}}, 1};
  case Kind::Sum: return {{{static_cast<const Sum &>(n).index, Type::i64()}}, 2};
  }
  throw IRError("scopeOf: unknown node kind");
}

namespace {

bool sameChildren(const Expr &e, const std::vector<Expr> &kids) {
  size_t i = 0;
  bool same = true;
  forEachChild(*e, [&](const Expr &c) { same = same && i < kids.size() && kids[i++] == c; });
  return same && i == kids.size();
}

bool sameBinders(const Node &n, const std::vector<std::string> &names) {
  if (names.empty()) return true;
  auto scope = scopeOf(n);
  if (names.size() != scope.binders.size()) throw IRError("rebuild: wrong number of binder names");
  for (size_t i = 0; i < names.size(); ++i)
    if (names[i] != scope.binders[i].name) return false;
  return true;
}

// The children between `from` and `to` (for the variadic parts).
std::vector<Expr> slice(const std::vector<Expr> &kids, size_t from, size_t to) {
  return {kids.begin() + long(from), kids.begin() + long(to)};
}

} // namespace

Expr rebuild(const Expr &e, const std::vector<Expr> &kids, const std::vector<std::string> &names) {
  if (sameChildren(e, kids) && sameBinders(*e, names)) return e;
  auto name = [&](size_t i, const std::string &old) { return names.empty() ? old : names.at(i); };
  switch (e->kind) {
  case Kind::Const:
  case Kind::Var: return e;
  case Kind::Prim: {
    auto p = e->as<Prim>();
    return p->op == Op::Cast ? Prim::makeCast(kids.at(0), p->type) : Prim::make(p->op, kids);
  }
  case Kind::Let: return Let::make(name(0, e->as<Let>()->name), kids.at(0), kids.at(1));
  case Kind::If: return If::make(kids.at(0), kids.at(1), kids.at(2));
  case Kind::Tuple: return e->type->isStruct() ? Tuple::makeStruct(e->type, kids) : Tuple::make(kids);
  case Kind::Proj: return Proj::make(kids.at(0), e->as<Proj>()->index);
  case Kind::Call: return Call::make(e->as<Call>()->callee, kids, e->type);
  case Kind::Opaque: return Opaque::make(e->as<Opaque>()->callee, kids, e->type, e->as<Opaque>()->read);
  case Kind::Throw: return Throw::make(e->as<Throw>()->thrown, e->type, kids);
  case Kind::Effect: return Effect::make(e->as<Effect>()->spelling, kids);
  case Kind::Resize: return Resize::make(kids.at(0), kids.at(1));
  case Kind::Pullback: {
    auto p = e->as<Pullback>();
    size_t n = p->args.size();
    return Pullback::make(p->callee, slice(kids, 0, n), kids.at(n), p->type, slice(kids, n + 1, kids.size()), p->withValue);
  }
  case Kind::Lambda: {
    auto params = e->as<Lambda>()->params;
    for (size_t i = 0; i < params.size(); ++i) params[i].name = name(i, params[i].name);
    return Lambda::make(std::move(params), kids.at(0));
  }
  case Kind::App: return App::make(kids.at(0), slice(kids, 1, kids.size()));
  case Kind::Index: return Index::make(kids.at(0), kids.at(1));
  case Kind::Size: return Size::make(kids.at(0));
  case Kind::NewArray: return NewArray::make(kids.at(0), e->type->elem(), e->as<NewArray>()->scratch);
  case Kind::Store: {
    auto s = e->as<Store>();
    return Store::make(kids.at(0), kids.at(1), kids.at(2), s->mode, s->path);
  }
  case Kind::Fold: {
    auto f = e->as<Fold>();
    return Fold::make(kids.at(0), kids.at(1), kids.at(2), name(0, f->index), name(1, f->state), kids.at(3),
                      f->reversed);
  }
  case Kind::While: return While::make(kids.at(0), name(0, e->as<While>()->state), kids.at(1), kids.at(2));
  case Kind::Build: return Build::make(kids.at(0), name(0, e->as<Build>()->index), kids.at(1));
  case Kind::Sum: return Sum::make(kids.at(0), kids.at(1), name(0, e->as<Sum>()->index), kids.at(2));
  case Kind::View: return View::make(kids.at(0), kids.at(1));
  }
  throw IRError("rebuild: unknown node kind");
}

LetChain unzipLets(const Expr &e) {
  LetChain chain;
  Expr cur = e;
  while (auto l = cur->as<Let>()) {
    chain.lets.emplace_back(l->name, l->value);
    cur = l->body;
  }
  chain.tail = cur;
  return chain;
}

Expr zipLets(const std::vector<std::pair<std::string, Expr>> &lets, Expr tail) {
  for (auto it = lets.rbegin(); it != lets.rend(); ++it) tail = Let::make(it->first, it->second, std::move(tail));
  return tail;
}

namespace {
void collectBoundNames(const Expr &e, std::set<std::string> &out) {
  for (auto &b : scopeOf(*e).binders) out.insert(b.name);
  for (auto &c : children(e)) collectBoundNames(c, out);
}
} // namespace

std::set<std::string> boundNames(const Expr &e) {
  std::set<std::string> out;
  collectBoundNames(e, out);
  return out;
}

std::set<std::string> recursiveFunctions(const std::vector<const Function *> &fns) {
  std::map<std::string, std::vector<std::string>> calls;
  for (const Function *f : fns) calls[f->name] = callees(f->body);
  std::set<std::string> recursive;
  for (const Function *f : fns) {
    std::set<std::string> seen;
    std::vector<std::string> work = calls[f->name];
    while (!work.empty()) {
      std::string g = work.back();
      work.pop_back();
      if (g == f->name) {
        recursive.insert(g);
        break;
      }
      if (seen.insert(g).second) work.insert(work.end(), calls[g].begin(), calls[g].end());
    }
  }
  return recursive;
}

std::vector<std::string> callees(const Expr &e) {
  struct Collect : Visitor {
    std::vector<std::string> order;
    std::unordered_set<std::string> seen;
    void add(const std::string &n) {
      if (seen.insert(n).second) order.push_back(n);
    }
    void visit(const Call *c) override {
      add(c->callee);
      Visitor::visit(c);
    }
    void visit(const Pullback *p) override {
      add(p->callee);
      Visitor::visit(p);
    }
  } collect;
  collect.visitExpr(e);
  return collect.order;
}

} // namespace unfad::ir
