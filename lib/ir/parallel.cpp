// The UNF paper's array combinators in terms of Knossos' build/sum, and the
// lowering of build/sum to loops (what the C++ printer takes).
#include "unfad/ir/ir.h"
#include "unfad/ir/mutator.h"

#include <cctype>
#include <unordered_set>

namespace unfad::ir {

namespace {
Expr index(const std::string &i) { return Var::make(i, Type::i64()); }
} // namespace

// map f a = build (size a) (i -> f a[i])
Expr map(const Expr &a, const std::string &i, const std::function<Expr(Expr)> &f) {
  return Build::make(Size::make(a), i, f(Index::make(a, index(i))));
}

// map2 f a b = build (size a) (i -> f a[i] b[i])   (a and b of one size)
Expr map2(const Expr &a, const Expr &b, const std::string &i, const std::function<Expr(Expr, Expr)> &f) {
  return Build::make(Size::make(a), i, f(Index::make(a, index(i)), Index::make(b, index(i))));
}

// reduce (+) 0 a = sum 0 (size a) (i -> a[i])
Expr sum(const Expr &a, const std::string &i) {
  return Sum::make(Const::makeInt(0), Size::make(a), i, Index::make(a, index(i)));
}

// shift a = build (size a) (i -> if i > 0 then a[i-1] else 0)
Expr shift(const Expr &a, const std::string &i) {
  Expr iv = index(i);
  Expr prev = Index::make(a, Prim::make(Op::Sub, {iv, Const::makeInt(1)}));
  return Build::make(Size::make(a), i,
                     If::make(Prim::make(Op::Gt, {iv, Const::makeInt(0)}), prev, Const::zero(a->type->elem())));
}

// scanl: out[0] = z; for i in [0, n): acc = f(acc, a[i]); out[i + 1] = acc
// scanr: out[n] = z; for i from n-1 down to 0: acc = f(a[i], acc); out[i] = acc
static Expr scan(const Expr &a, const Expr &z, const std::string &i, const std::string &acc,
                 const std::function<Expr(Expr, Expr)> &f, bool left) {
  const std::string out = acc + "_scan", next = acc + "_next";
  Expr n = Size::make(a), iv = index(i), av = Var::make(acc, z->type), ov = Var::make(out, Type::array(z->type));
  Expr one = Const::makeInt(1);
  Expr x = Index::make(a, iv);
  Expr value = left ? f(av, x) : f(x, av);
  Expr slot = left ? Prim::make(Op::Add, {iv, one}) : iv;
  Expr body = Let::make(next, value,
                        Let::make("_" + out, Store::make(ov, slot, Var::make(next, z->type), Store::Mode::Set),
                                  Var::make(next, z->type)));
  Expr fold = Fold::make(Const::makeInt(0), n, z, i, acc, body, !left);
  Expr first = Store::make(ov, left ? Const::makeInt(0) : n, z, Store::Mode::Set);
  return Let::make(out, NewArray::make(Prim::make(Op::Add, {n, one}), z->type),
                   Let::make("_" + out + "_0", first, Let::make("_" + out + "_fold", fold, ov)));
}

Expr scanl(const Expr &a, const Expr &z, const std::string &i, const std::string &acc,
           const std::function<Expr(Expr, Expr)> &f) {
  return scan(a, z, i, acc, f, true);
}

Expr scanr(const Expr &a, const Expr &z, const std::string &i, const std::string &acc,
           const std::function<Expr(Expr, Expr)> &f) {
  return scan(a, z, i, acc, f, false);
}

namespace {
// build n (i -> e)  ~>  let a = new[n] in fold i in [0, n): a[i] = e; a
// sum lo hi (i -> e) ~>  fold i in [lo, hi) from s = 0: s + e
struct Lower : Mutator {
  NameSupply names;

  // The running total is named after the variable the sum is bound to.
  std::string total = "sum";

  Expr visit(const Sum *n, const Expr &) override {
    std::string name = total;
    total = "sum";
    Expr lo = mutate(n->lo), hi = mutate(n->hi), body = mutate(n->body);
    std::string s = names.fresh(name), next = names.fresh(name);
    Expr acc = Prim::make(Op::Add, {Var::make(s, body->type), body});
    return Fold::make(lo, hi, Const::zero(body->type), n->index, s, Let::make(next, acc, Var::make(next, acc->type)));
  }

  // The array `a` filled by a loop, then `rest`.
  Expr fill(const std::string &a, const Build *b, const Expr &rest) {
    Expr size = mutate(b->size), body = mutate(b->body);
    std::vector<std::pair<std::string, Expr>> lets;
    if (!size->is<Var>() && !size->is<Const>()) {
      std::string n = names.fresh("n");
      lets.push_back({n, size});
      size = Var::make(n, size->type);
    }
    Expr av = Var::make(a, Type::array(body->type));
    Expr store = Store::make(av, Var::make(b->index, Type::i64()), body, Store::Mode::Set);
    Expr loopBody = Let::make(names.fresh("_"), store, Tuple::make({}));
    Expr loop = Fold::make(Const::makeInt(0), size, Tuple::make({}), b->index, names.fresh("u"), loopBody);
    Expr out = Let::make(a, NewArray::make(size, body->type), Let::make(names.fresh("_"), loop, rest));
    for (auto it = lets.rbegin(); it != lets.rend(); ++it) out = Let::make(it->first, it->second, out);
    return out;
  }

  Expr visit(const Let *n, const Expr &self) override {
    if (auto b = n->value->as<Build>()) return fill(n->name, b, mutate(n->body));
    if (n->value->is<Sum>()) { // s_3 -> s (the source's variable)
      total = n->name;
      while (total.size() > 2 && std::isdigit(static_cast<unsigned char>(total.back()))) {
        size_t u = total.find_last_not_of("0123456789");
        if (u == std::string::npos || total[u] != '_' || u == 0) break;
        total.resize(u);
      }
    }
    return Mutator::visit(n, self);
  }
  Expr visit(const Build *n, const Expr &self) override {
    std::string a = names.fresh("array");
    return fill(a, n, Var::make(a, self->type));
  }
};

// Whether any build/sum occurs; shared subterms are visited once (the
// generic traversals are exponential on DAGs of shared nodes).
bool hasParallel(const Expr &e) {
  std::unordered_set<const Node *> seen;
  std::vector<const Node *> todo{e.get()};
  bool found = false;
  while (!todo.empty() && !found) {
    const Node *x = todo.back();
    todo.pop_back();
    if (!seen.insert(x).second) continue;
    found = x->is<Build>() || x->is<Sum>();
    // Visiting x's node pushes its children instead of descending.
    struct C : Visitor {
      std::vector<const Node *> *out;
      bool self = true;
      void visitExpr(const Expr &c) override {
        if (self) {
          self = false;
          Visitor::visitExpr(c);
        } else {
          out->push_back(c.get());
        }
      }
    } c;
    c.out = &todo;
    c.visitExpr(Expr(Expr(), x)); // non-owning alias of x
  }
  return found;
}
} // namespace

Expr lowerParallel(const Expr &e) {
  if (!hasParallel(e)) return e;
  Lower l;
  l.names.reserveAll(e);
  return l.mutate(e);
}

} // namespace unfad::ir
