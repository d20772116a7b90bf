// α-equivalence: one case per node kind, and no default, so that a new kind
// fails to compile here until it says how it compares.
#include "unfad/ir/equal.h"

#include <cmath>
#include <optional>
#include <unordered_map>

namespace unfad::ir {

namespace {

class AlphaEqual {
public:
  bool eq(const Expr &a, const Expr &b) {
    if (a == b && bound_.empty()) return true;
    if (a->kind != b->kind || !sameType(a->type, b->type)) return false;
    switch (a->kind) {
    case Kind::Const: return sameConst(*a->as<Const>(), *b->as<Const>());
    case Kind::Var: return sameVar(a->as<Var>()->name, b->as<Var>()->name);
    case Kind::Prim: return a->as<Prim>()->op == b->as<Prim>()->op && eqAll(a->as<Prim>()->args, b->as<Prim>()->args);
    case Kind::Let: {
      auto x = a->as<Let>(), y = b->as<Let>();
      return eq(x->value, y->value) && underBinders({{x->name, y->name}}, x->body, y->body);
    }
    case Kind::If: {
      auto x = a->as<If>(), y = b->as<If>();
      return eq(x->cond, y->cond) && eq(x->thenE, y->thenE) && eq(x->elseE, y->elseE);
    }
    case Kind::Tuple: return eqAll(a->as<Tuple>()->elems, b->as<Tuple>()->elems);
    case Kind::Proj: return a->as<Proj>()->index == b->as<Proj>()->index && eq(a->as<Proj>()->tuple, b->as<Proj>()->tuple);
    case Kind::Call: return a->as<Call>()->callee == b->as<Call>()->callee && eqAll(a->as<Call>()->args, b->as<Call>()->args);
    case Kind::Opaque:
      return a->as<Opaque>()->callee == b->as<Opaque>()->callee && a->as<Opaque>()->read == b->as<Opaque>()->read &&
             eqAll(a->as<Opaque>()->args, b->as<Opaque>()->args);
    case Kind::Resize:
      return eq(a->as<Resize>()->array, b->as<Resize>()->array) && eq(a->as<Resize>()->size, b->as<Resize>()->size);
    case Kind::Effect:
      return a->as<Effect>()->spelling == b->as<Effect>()->spelling && eqAll(a->as<Effect>()->args, b->as<Effect>()->args);
    case Kind::Throw:
      return a->as<Throw>()->thrown == b->as<Throw>()->thrown && sameType(a->type, b->type) &&
             eqAll(a->as<Throw>()->args, b->as<Throw>()->args);
    case Kind::Pullback: {
      auto x = a->as<Pullback>(), y = b->as<Pullback>();
      return x->callee == y->callee && x->withValue == y->withValue && eqAll(x->args, y->args) &&
             eq(x->cotangent, y->cotangent) && eqAll(x->buffers, y->buffers);
    }
    case Kind::Lambda: {
      auto x = a->as<Lambda>(), y = b->as<Lambda>();
      if (x->params.size() != y->params.size()) return false;
      std::vector<std::pair<std::string, std::string>> names;
      for (size_t k = 0; k < x->params.size(); ++k) {
        if (!sameType(x->params[k].type, y->params[k].type)) return false;
        names.push_back({x->params[k].name, y->params[k].name});
      }
      return underBinders(names, x->body, y->body);
    }
    case Kind::App: return eq(a->as<App>()->fn, b->as<App>()->fn) && eqAll(a->as<App>()->args, b->as<App>()->args);
    case Kind::Index:
      return eq(a->as<Index>()->array, b->as<Index>()->array) && eq(a->as<Index>()->index, b->as<Index>()->index);
    case Kind::Size: return eq(a->as<Size>()->array, b->as<Size>()->array);
    case Kind::View:
      return eq(a->as<View>()->array, b->as<View>()->array) && eq(a->as<View>()->offset, b->as<View>()->offset);
    case Kind::NewArray:
      return a->as<NewArray>()->scratch == b->as<NewArray>()->scratch && eq(a->as<NewArray>()->size, b->as<NewArray>()->size);
    case Kind::Store: {
      auto x = a->as<Store>(), y = b->as<Store>();
      return x->mode == y->mode && x->path == y->path && eq(x->array, y->array) && eq(x->index, y->index) &&
             eq(x->value, y->value);
    }
    case Kind::Fold: {
      auto x = a->as<Fold>(), y = b->as<Fold>();
      return x->reversed == y->reversed && eq(x->lo, y->lo) && eq(x->hi, y->hi) && eq(x->init, y->init) &&
             underBinders({{x->index, y->index}, {x->state, y->state}}, x->body, y->body);
    }
    case Kind::While: {
      auto x = a->as<While>(), y = b->as<While>();
      return eq(x->init, y->init) && underBinders({{x->state, y->state}}, x->cond, y->cond) &&
             underBinders({{x->state, y->state}}, x->body, y->body);
    }
    case Kind::Build: {
      auto x = a->as<Build>(), y = b->as<Build>();
      return eq(x->size, y->size) && underBinders({{x->index, y->index}}, x->body, y->body);
    }
    case Kind::Sum: {
      auto x = a->as<Sum>(), y = b->as<Sum>();
      return eq(x->lo, y->lo) && eq(x->hi, y->hi) && underBinders({{x->index, y->index}}, x->body, y->body);
    }
    }
    return false;
  }

private:
  // The binders in scope, both ways: a's name -> b's, b's name -> a's.
  std::unordered_map<std::string, std::string> aToB_, bToA_;
  std::vector<int> bound_; // non-empty while under a binder

  static bool sameConst(const Const &x, const Const &y) {
    if (std::isnan(x.fvalue) || std::isnan(y.fvalue)) return std::isnan(x.fvalue) && std::isnan(y.fvalue);
    return x.fvalue == y.fvalue && std::signbit(x.fvalue) == std::signbit(y.fvalue) && x.ivalue == y.ivalue;
  }

  // A bound name matches only its partner; a free name only itself.
  bool sameVar(const std::string &x, const std::string &y) const {
    auto ab = aToB_.find(x), ba = bToA_.find(y);
    if (ab == aToB_.end() && ba == bToA_.end()) return x == y;
    return ab != aToB_.end() && ba != bToA_.end() && ab->second == y && ba->second == x;
  }

  bool eqAll(const std::vector<Expr> &a, const std::vector<Expr> &b) {
    if (a.size() != b.size()) return false;
    for (size_t k = 0; k < a.size(); ++k)
      if (!eq(a[k], b[k])) return false;
    return true;
  }

  // Compares the bodies with the binder pairs in scope, then restores the
  // outer scope (an inner binder may shadow an outer one).
  bool underBinders(const std::vector<std::pair<std::string, std::string>> &names, const Expr &a, const Expr &b) {
    std::vector<std::pair<std::string, std::optional<std::string>>> savedA, savedB;
    for (auto &[x, y] : names) {
      auto ia = aToB_.find(x), ib = bToA_.find(y);
      savedA.push_back({x, ia == aToB_.end() ? std::nullopt : std::optional<std::string>(ia->second)});
      savedB.push_back({y, ib == bToA_.end() ? std::nullopt : std::optional<std::string>(ib->second)});
      aToB_[x] = y;
      bToA_[y] = x;
    }
    bound_.push_back(0);
    bool same = eq(a, b);
    bound_.pop_back();
    for (auto it = savedA.rbegin(); it != savedA.rend(); ++it) restore(aToB_, *it);
    for (auto it = savedB.rbegin(); it != savedB.rend(); ++it) restore(bToA_, *it);
    return same;
  }

  static void restore(std::unordered_map<std::string, std::string> &m,
                      const std::pair<std::string, std::optional<std::string>> &saved) {
    if (saved.second) m[saved.first] = *saved.second;
    else m.erase(saved.first);
  }
};

} // namespace

bool alphaEqual(const Expr &a, const Expr &b) { return AlphaEqual().eq(a, b); }

} // namespace unfad::ir
