// What the partial evaluator learns about a loop's state after evaluating
// its body (see partial_eval.h):
//
//   a component the body hands back unchanged is its initial value
//   throughout  ~> substituted, and dropped from the state (a reduction's
//   adjoint loop carries a constant cotangent);
//   a float leaf that starts at 0 and stays 0  ~> 0, read as 0 in the body
//   (a cotangent that never reaches the result).
#include "partial_eval.h"
#include "unfad/ir/equal.h"
#include "unfad/ir/mutator.h"

#include <functional>

namespace unfad::opt {

using namespace unfad::ir;

namespace {

using Path = std::vector<int>;

// Paths to a fold state's float leaves.
std::vector<Path> floatLeaves(const TypeP &st) {
  std::vector<Path> leaves;
  std::function<void(const TypeP &, Path &)> collect = [&](const TypeP &t, Path &path) {
    if (t->isFloat()) leaves.push_back(path);
    if (!t->isTuple()) return;
    for (int k = 0; k < int(t->elems.size()); ++k) {
      path.push_back(k);
      collect(t->elems[k], path);
      path.pop_back();
    }
  };
  Path root;
  collect(st, root);
  return leaves;
}

Expr leafAt(Expr x, const Path &path) {
  for (int k : path) {
    if (auto t = x->as<ir::Tuple>()) x = t->elems[k];
    else return nullptr;
  }
  return x;
}

Expr readLeaf(const std::string &var, const TypeP &t, const Path &path) {
  Expr x = Var::make(var, t);
  for (int k : path) x = Proj::make(x, k);
  return x;
}

Expr chainTail(Expr e) {
  while (auto l = e->as<Let>()) e = l->body;
  return e;
}

Expr makeTupleLike(const TypeP &t, std::vector<Expr> es) {
  return t->isStruct() ? ir::Tuple::makeStruct(t, std::move(es)) : ir::Tuple::make(std::move(es));
}

// Rewrites reads of the state `state`: s#k ~> repl[k], s ~> <repl..>.
struct ReplaceState : Mutator {
  std::string state;
  std::vector<Expr> repl;
  Expr visit(const Proj *n, const Expr &self) override {
    auto v = n->tuple->as<Var>();
    if (v && v->name == state) return repl[n->index];
    return Mutator::visit(n, self);
  }
  Expr visit(const Var *n, const Expr &self) override { return n->name == state ? ir::Tuple::make(repl) : self; }
};

// Rewrites printed reads of known leaves into their constants, then
// simplifies what that exposes (for the zero-state fixpoint).
struct PropagateKnown : Mutator {
  const std::unordered_map<std::string, Expr> *known;
  bool strict;
  Expr mutate(const Expr &x) override {
    auto it = known->find(print(x));
    if (it != known->end()) return it->second;
    Expr y = Mutator::mutate(x);
    if (auto p = y->as<Prim>()) return simplify(p->op, p->args, p->type, strict);
    if (auto pr = y->as<Proj>())
      if (auto t = pr->tuple->as<ir::Tuple>()) return t->elems[pr->index];
    if (auto i = y->as<If>())
      if (auto c = i->cond->as<Const>()) return c->ivalue ? i->thenE : i->elseE;
    // a transpose is linear: J^T 0 = 0 (nothing to add into buffers either)
    if (auto pb = y->as<Pullback>(); pb && !pb->withValue && pb->buffers.empty() && isZeroValue(pb->cotangent)) return Const::zero(pb->type);
    return y;
  }
};

} // namespace

// The algebraic rules again, after a substitution put constants in.
Expr PartialEvaluator::resimplify(const Expr &e) const {
  struct Resimplify : Mutator {
    bool strict;
    Expr visit(const Prim *n, const Expr &self) override {
      Expr r = Mutator::visit(n, self);
      auto p = r->as<Prim>();
      return p ? simplify(p->op, p->args, p->type, strict) : r;
    }
    Expr visit(const If *n, const Expr &self) override { // if true then a else b ~> a
      Expr r = Mutator::visit(n, self);
      auto i = r->as<If>();
      auto c = i ? i->cond->as<Const>() : nullptr;
      return c ? (c->ivalue ? i->thenE : i->elseE) : r;
    }
  } rules;
  rules.strict = strict();
  return rules.mutate(e);
}

// fold with state (s_0..s_n) whose body returns s_k unchanged: s_k is its
// initial value throughout ~> substitute it, drop it from the state.
Expr PartialEvaluator::invariantState(const Expr &e) {
  auto f = e->as<Fold>();
  const TypeP &st = f->init->type;
  if (st->isScalar()) return invariantScalarState(f, e);
  if (!st->isTuple() || st->isStruct() || st->elems.empty()) return e;
  Expr tail = chainTail(f->body);
  auto tt = tail->as<ir::Tuple>();
  auto whole = tail->as<Var>();
  if (!tt && !(whole && whole->name == f->state)) return e;
  std::vector<int> kept, fixed;
  for (int k = 0; k < int(st->elems.size()); ++k)
    (!tt || alphaEqual(tt->elems[k], Proj::make(Var::make(f->state, st), k)) ? fixed : kept).push_back(k);
  if (fixed.empty()) return e;
  // The initial components become atoms that may be duplicated.
  auto initTuple = f->init->as<ir::Tuple>();
  std::vector<Expr> init0;
  for (int k = 0; k < int(st->elems.size()); ++k)
    init0.push_back(atomize(f->state + "_init", initTuple ? initTuple->elems[k] : Proj::make(f->init, k)));
  std::vector<TypeP> keptTypes;
  std::vector<Expr> keptInit;
  for (int k : kept) {
    keptTypes.push_back(st->elems[k]);
    keptInit.push_back(init0[k]);
  }
  std::string newState = residualName(f->state);
  Expr newStateVar = Var::make(newState, Type::tuple(keptTypes));
  // Body: s#k ~> init_k (fixed) or s'#j (kept); the result tuple shrinks.
  ReplaceState replace;
  replace.state = f->state;
  for (int k = 0, j = 0; k < int(st->elems.size()); ++k) {
    bool isKept = std::find(kept.begin(), kept.end(), k) != kept.end();
    replace.repl.push_back(isKept ? Proj::make(newStateVar, j++) : init0[k]);
  }
  std::function<Expr(const Expr &)> shrink = [&](const Expr &b) -> Expr {
    if (auto l = b->as<Let>()) return Let::make(l->name, replace.mutate(l->value), shrink(l->body));
    std::vector<Expr> es;
    for (int k : kept) es.push_back(replace.mutate(b->as<ir::Tuple>()->elems[k]));
    return ir::Tuple::make(es); // (the whole state returned: nothing kept)
  };
  Expr body = resimplify(shrink(f->body));
  std::vector<Expr> out(st->elems.size());
  for (int k : fixed) out[k] = init0[k];
  if (!kept.empty()) {
    Expr loop = emit(f->state, Fold::make(f->lo, f->hi, ir::Tuple::make(keptInit), f->index, newState, body, f->reversed));
    for (size_t j = 0; j < kept.size(); ++j) out[kept[j]] = Proj::make(loop, int(j));
  } else if (mayWrite(body)) {
    emit("_", Fold::make(f->lo, f->hi, ir::Tuple::make({}), f->index, newState, body, f->reversed));
  }
  return ir::Tuple::make(out);
}

// The same for one scalar of state: fold .. from s = init -> (lets) s
//   ~> init (and the loop, stateless, when its lets write memory)
Expr PartialEvaluator::invariantScalarState(const Fold *f, const Expr &e) {
  auto whole = chainTail(f->body)->as<Var>();
  if (!whole || whole->name != f->state) return e;
  Expr init0 = atomize(f->state + "_init", f->init);
  std::function<Expr(const Expr &)> unitTail = [&](const Expr &b) -> Expr {
    if (auto l = b->as<Let>()) return Let::make(l->name, substitute(l->value, f->state, init0), unitTail(l->body));
    return ir::Tuple::make({});
  };
  Expr body = resimplify(unitTail(f->body));
  if (mayWrite(body)) emit("_", Fold::make(f->lo, f->hi, ir::Tuple::make({}), f->index, residualName(f->state), body, f->reversed));
  return init0;
}

// The state leaves of a fold that start at 0 and stay 0 (an optimistic
// fixpoint: assume every leaf that starts at 0 stays 0, drop those the body
// makes non-zero under that assumption, repeat until stable). Such a leaf
// is a cotangent that never reaches the result: it is 0 (computing it could
// only give 0 · inf = NaN where dead forward state overflowed).
std::set<Path> PartialEvaluator::zeroLeaves(const Fold *f) const {
  const TypeP &st = f->init->type;
  Expr tt = chainTail(f->body);
  std::set<Path> zeros;
  // (a bare float: the path []; a tuple handed back whole is read leaf by leaf)
  if (st->isTuple() ? !(tt->is<ir::Tuple>() || tt->is<Var>()) : !st->isFloat()) return zeros;
  for (auto &p : floatLeaves(st))
    if (Expr x = leafAt(f->init, p); x && isZeroValue(x)) zeros.insert(p);
  while (!zeros.empty()) {
    std::unordered_map<std::string, Expr> known; // printed reads of zero leaves -> 0
    for (auto &p : zeros) known[print(readLeaf(f->state, st, p))] = Const::zero(leafAt(f->init, p)->type);
    Expr tail = constantTail(f->body, known);
    std::set<Path> next;
    for (auto &p : zeros)
      if (Expr x = leafAt(tail, p); x && isZeroValue(x)) next.insert(p);
    if (next == zeros) break;
    zeros = next;
  }
  return zeros;
}

// Reads of the zero leaves become 0 in the body, and its result hands
// those leaves back unchanged, which invariantState then removes.
Expr PartialEvaluator::zeroState(const Expr &e) {
  auto f = e->as<Fold>();
  const TypeP &st = f->init->type;
  if (!st->isTuple()) return e;
  std::set<Path> zeros = zeroLeaves(f);
  if (zeros.empty()) return e;
  auto read = [&](const Path &path) { return readLeaf(f->state, st, path); };
  std::unordered_map<std::string, Expr> known;
  for (auto &p : zeros) known[print(read(p))] = Const::zero(leafAt(f->init, p)->type);
  struct ZeroReads : Mutator {
    const std::unordered_map<std::string, Expr> *zeros;
    Expr visit(const Proj *n, const Expr &self) override {
      auto it = zeros->find(print(self));
      return it != zeros->end() ? it->second : Mutator::visit(n, self);
    }
  } zeroReads;
  zeroReads.zeros = &known;
  std::function<Expr(const Expr &, Path &)> handBack = [&](const Expr &x, Path &path) -> Expr {
    if (zeros.count(path)) return read(path);
    auto t = x->as<ir::Tuple>();
    bool under = std::any_of(zeros.begin(), zeros.end(), [&](const Path &z) {
      return z.size() > path.size() && std::equal(path.begin(), path.end(), z.begin());
    });
    if (!t && !(under && x->is<Var>() && x->type->isTuple())) return zeroReads.mutate(x);
    std::vector<Expr> es;
    for (int k = 0; k < int(x->type->elems.size()); ++k) {
      path.push_back(k);
      es.push_back(handBack(t ? t->elems[size_t(k)] : Proj::make(x, k), path)); // (a variable: its leaves)
      path.pop_back();
    }
    return makeTupleLike(x->type, es);
  };
  std::function<Expr(const Expr &)> body = [&](const Expr &b) -> Expr {
    if (auto l = b->as<Let>()) return Let::make(l->name, zeroReads.mutate(l->value), body(l->body));
    Path path;
    return handBack(b, path);
  };
  return Fold::make(f->lo, f->hi, f->init, f->index, f->state, resimplify(body(f->body)), f->reversed);
}

// The tail of `e` with what is known constant propagated through its lets
// (`known`: printed expressions -> constants); for zeroLeaves.
Expr PartialEvaluator::constantTail(const Expr &e, std::unordered_map<std::string, Expr> known) const {
  PropagateKnown propagate;
  propagate.known = &known;
  propagate.strict = strict();
  // a tuple value leaf by leaf (`s` is `(s#0, s#1)`), with what is known
  std::function<Expr(const Expr &)> expand = [&](const Expr &x) -> Expr {
    if (!x->type->isTuple() || x->is<ir::Tuple>()) return propagate.mutate(x);
    std::vector<Expr> es;
    for (int k = 0; k < int(x->type->elems.size()); ++k) es.push_back(expand(Proj::make(x, k)));
    return makeTupleLike(x->type, es);
  };
  Expr cur = e;
  while (auto l = cur->as<Let>()) {
    Expr v = propagate.mutate(l->value);
    if (v->is<Const>() || (v->is<ir::Tuple>() && isZeroValue(v))) known[l->name] = v;
    // a nested loop whose state starts at 0 under these assumptions: the
    // leaves that stay 0 are 0 after it
    if (auto f = v->as<Fold>()) {
      Expr g = Fold::make(f->lo, f->hi, expand(f->init), f->index, f->state, f->body, f->reversed);
      auto gf = g->as<Fold>();
      for (auto &p : zeroLeaves(gf))
        known[print(readLeaf(l->name, gf->init->type, p))] = Const::zero(leafAt(gf->init, p)->type);
    }
    cur = l->body;
  }
  return expand(cur);
}

} // namespace unfad::opt
