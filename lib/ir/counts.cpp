#include "unfad/ir/counts.h"

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace unfad::ir {

namespace {
bool isInt(const Const *c, int64_t v) { return c && c->ivalue == v; }
} // namespace

Expr addCounts(const Expr &a, const Expr &b) {
  if (!a || !b) return nullptr;
  auto ca = a->as<Const>(), cb = b->as<Const>();
  if (ca && cb) return Const::makeInt(ca->ivalue + cb->ivalue);
  if (isInt(ca, 0)) return b;
  if (isInt(cb, 0)) return a;
  return Prim::make(Op::Add, {a, b});
}

Expr mulCounts(const Expr &a, const Expr &b) {
  if (!a || !b) return nullptr;
  auto ca = a->as<Const>(), cb = b->as<Const>();
  if (ca && cb) return Const::makeInt(ca->ivalue * cb->ivalue);
  if (isInt(ca, 0) || isInt(cb, 0)) return Const::makeInt(0);
  if (isInt(ca, 1)) return b;
  if (isInt(cb, 1)) return a;
  return Prim::make(Op::Mul, {a, b});
}

// (counts are never negative, so max(0, x) = x)
Expr maxCounts(const Expr &a, const Expr &b) {
  if (!a || !b) return nullptr;
  auto ca = a->as<Const>(), cb = b->as<Const>();
  if (ca && cb) return Const::makeInt(std::max(ca->ivalue, cb->ivalue));
  if (isInt(ca, 0)) return b;
  if (isInt(cb, 0)) return a;
  return If::make(Prim::make(Op::Gt, {a, b}), a, b);
}

namespace {

// A sum of integer multiples of products of leaves, keyed by the product's
// leaves (their printed forms, sorted).
struct Polynomial {
  std::map<std::vector<std::string>, int64_t> terms;
  std::map<std::string, Expr> leaves;
};

constexpr size_t kMaxTerms = 16;

std::optional<Polynomial> expand(const Expr &e) {
  Polynomial out;
  if (auto c = e->as<Const>()) {
    if (!e->type->isInt()) return std::nullopt;
    if (c->ivalue) out.terms[{}] = c->ivalue;
    return out;
  }
  auto p = e->as<Prim>();
  if (p && p->type->isInt() && (p->op == Op::Add || p->op == Op::Sub || p->op == Op::Neg || p->op == Op::Mul)) {
    std::vector<Polynomial> as;
    for (auto &a : p->args) {
      auto x = expand(a);
      if (!x) return std::nullopt;
      as.push_back(std::move(*x));
    }
    for (auto &a : as) out.leaves.insert(a.leaves.begin(), a.leaves.end());
    if (p->op == Op::Mul) {
      for (auto &[ka, ca] : as[0].terms)
        for (auto &[kb, cb] : as[1].terms) {
          std::vector<std::string> k = ka;
          k.insert(k.end(), kb.begin(), kb.end());
          std::sort(k.begin(), k.end());
          out.terms[k] += ca * cb;
        }
    } else {
      for (size_t i = 0; i < as.size(); ++i) {
        const int64_t sign = p->op == Op::Neg || (p->op == Op::Sub && i == 1) ? -1 : 1;
        for (auto &[k, c] : as[i].terms) out.terms[k] += sign * c;
      }
    }
    for (auto it = out.terms.begin(); it != out.terms.end();) it = it->second ? std::next(it) : out.terms.erase(it);
    if (out.terms.size() > kMaxTerms) return std::nullopt;
    return out;
  }
  if (!e->type->isInt()) return std::nullopt;
  std::string key = print(e); // a leaf: a variable, a load, a size, a division...
  out.terms[{key}] = 1;
  out.leaves[key] = e;
  return out;
}

} // namespace

bool hoistableScalar(const Expr &e, const std::set<std::string> *readable) {
  auto early = [&](const Expr &x) { return hoistableScalar(x, readable); };
  if (!e->type->isScalar()) return false;
  if (e->is<Const>() || e->is<Var>()) return true;
  if (auto p = e->as<Prim>()) {
    if ((p->op == Op::Div || p->op == Op::Mod) && !p->type->isFloat()) {
      // (only by a constant that cannot trap: a strided loop's step count)
      auto c = p->args[1]->as<Const>();
      if (!c || c->ivalue == 0 || c->ivalue == -1) return false;
    }
    return std::all_of(p->args.begin(), p->args.end(), early);
  }
  if (auto i = e->as<If>()) return early(i->cond) && early(i->thenE) && early(i->elseE);
  if (auto l = e->as<Let>()) return early(l->value) && early(l->body); // (a branch's code)
  // (an array's size never changes: a growing std::vector's length is a local of its own)
  if (auto z = e->as<Size>()) return z->array->is<Var>();
  if (auto x = e->as<Index>(); x && readable)
    if (auto a = x->array->as<Var>()) return readable->count(a->name) && early(x->index);
  // (a number read from passive data, `model.base_relatives[i].nrows_`: pure,
  // its arguments the data and the integers choosing the part)
  if (auto o = e->as<Opaque>(); o && readable)
    return std::all_of(o->args.begin(), o->args.end(), [&](const Expr &a) { return a->is<Var>() || early(a); });
  return false;
}

Expr differenceOf(const Expr &hi, const Expr &lo) {
  auto h = expand(hi), l = expand(lo);
  if (!h || !l) return Prim::make(Op::Sub, {hi, lo});
  h->leaves.insert(l->leaves.begin(), l->leaves.end());
  for (auto &[k, c] : l->terms) h->terms[k] -= c;
  Expr sum;
  for (auto &[k, c] : h->terms) {
    if (!c) continue;
    Expr term;
    for (auto &leaf : k) term = term ? Prim::make(Op::Mul, {term, h->leaves.at(leaf)}) : h->leaves.at(leaf);
    if (!term) term = Const::makeInt(c);
    else if (c != 1) term = Prim::make(Op::Mul, {Const::makeInt(c), term});
    sum = sum ? Prim::make(Op::Add, {sum, term}) : term;
  }
  return sum ? sum : Const::makeInt(0);
}

} // namespace unfad::ir
