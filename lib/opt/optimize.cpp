// Partial evaluation (Huot & Shaikhha §5.1, Fig. 12) as one online pass:
//
//   (fun (x1..xn) -> e)(e1..en)  ~>  let x1 = e1 in ... e         (β)
//   let x = y in e / let x = c in e  ~>  e[y/x] / e[c/x]          (forward substitution)
//   π_i <e1..en>  ~>  e_i                                         (tuple projection)
//   let x = <e1..en> in e  ~>  let x1 = e1 .. in e[<x1..xn>/x]    (scalar replacement)
//   if true then a else b ~> a;  if c then a else a ~> a          (conditionals)
//   0*e ~> 0, 1*e ~> e, e+0 ~> e, ...                             (algebra, see simplify)
//
// followed by common-subexpression elimination (during the pass) and dead
// code elimination (after it). Continuations are linear, so inlining them
// never duplicates work; after the pass no Lambda or App remains.
//
// Binder names are unique in the input (the AD stage makes them so), which
// lets the evaluator keep one environment instead of closures.
#include "unfad/opt/optimize.h"
#include "unfad/ir/mutator.h"

#include <functional>
#include <optional>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace unfad::opt {

using namespace unfad::ir;

namespace {

bool isConst(const Expr &e, double v) {
  auto c = e->as<Const>();
  return c && c->type->isFloat() && c->fvalue == v;
}

bool isZeroValue(const Expr &e) {
  if (auto c = e->as<Const>()) return c->type->isFloat() && c->fvalue == 0.0;
  if (auto t = e->as<ir::Tuple>()) {
    for (auto &x : t->elems)
      if (!isZeroValue(x)) return false;
    return true;
  }
  return false;
}

// Atoms may be duplicated freely: variables, constants, projections of
// variables and tuples of atoms.
bool isAtom(const Expr &e) {
  switch (e->kind) {
  case Kind::Var: case Kind::Const: return true;
  case Kind::Proj: return isAtom(e->as<Proj>()->tuple);
  case Kind::Tuple:
    for (auto &x : e->as<ir::Tuple>()->elems)
      if (!isAtom(x)) return false;
    return true;
  default: return false;
  }
}

// Lets whose value may write memory (ir::mayWrite) are kept, in order.

bool hasCall(const Expr &e) {
  struct C : Visitor {
    bool found = false;
    void visit(const Call *) override { found = true; }
  } c;
  c.visitExpr(e);
  return c.found;
}

// Whether e reads memory (its value depends on when it runs).
bool readsMemory(const Expr &e) {
  struct R : Visitor {
    bool found = false;
    void visit(const Index *) override { found = true; }
    void visit(const Call *n) override {
      for (auto &a : n->args) found |= a->type->isArray();
      Visitor::visit(n);
    }
  } r;
  r.visitExpr(e);
  return r.found;
}

// The arrays (variable names) e reads, and those it may write. A call
// given arrays counts as reading and writing them.
void arraysTouched(const Expr &e, std::unordered_set<std::string> *read, std::unordered_set<std::string> *written) {
  struct T : Visitor {
    std::unordered_set<std::string> *r, *w;
    static void add(std::unordered_set<std::string> *s, const Expr &a) {
      if (auto v = a->as<Var>(); v && s) s->insert(v->name);
    }
    void visit(const Index *n) override { add(r, n->array); Visitor::visit(n); }
    void visit(const Store *n) override { add(w, n->array); visitExpr(n->index); visitExpr(n->value); }
    void visit(const Pullback *n) override {
      for (auto &b : n->buffers) add(w, b);
      for (auto &a : n->args) if (a->type->isArray()) add(r, a);
      Visitor::visit(n);
    }
    void visit(const Call *n) override {
      for (auto &a : n->args) if (a->type->isArray()) { add(r, a); add(w, a); }
      Visitor::visit(n);
    }
  } t;
  t.r = read;
  t.w = written;
  t.visitExpr(e);
}

// Whether running `later` may change what `value` reads.
bool conflicts(const Expr &value, const Expr &later) {
  std::unordered_set<std::string> r, w;
  arraysTouched(value, &r, nullptr);
  if (r.empty()) return false;
  arraysTouched(later, nullptr, &w);
  for (auto &a : r)
    if (w.count(a)) return true;
  return false;
}

bool sameAtom(const Expr &a, const Expr &b) {
  if (a == b) return true;
  if (a->kind != b->kind || !sameType(a->type, b->type)) return false;
  switch (a->kind) {
  case Kind::Var: return a->as<Var>()->name == b->as<Var>()->name;
  case Kind::Const: return a->as<Const>()->fvalue == b->as<Const>()->fvalue;
  case Kind::Proj: return a->as<Proj>()->index == b->as<Proj>()->index && sameAtom(a->as<Proj>()->tuple, b->as<Proj>()->tuple);
  case Kind::Tuple: {
    auto &x = a->as<ir::Tuple>()->elems, &y = b->as<ir::Tuple>()->elems;
    for (size_t i = 0; i < x.size(); ++i)
      if (!sameAtom(x[i], y[i])) return false;
    return true;
  }
  default: return false;
  }
}

Expr foldConst(Op op, const std::vector<Expr> &a, const TypeP &t) {
  Program none;
  std::vector<std::pair<std::string, Value>> env;
  Expr e = op == Op::Cast ? Prim::makeCast(a[0], t) : Prim::make(op, a);
  double v = evaluate(none, e, env).scalar;
  if (t->isBool()) return Const::makeBool(v != 0);
  if (t->isInt()) return Const::makeInt(int64_t(v));
  if (t->scalar == Scalar::F32) v = double(float(v));
  return Const::make(v, t);
}

// The algebraic rules, one line each.
Expr simplify(Op op, std::vector<Expr> a, const TypeP &castTo) {
  TypeP t = op == Op::Cast ? castTo : (opIsPredicate(op) ? Type::boolean() : a[0]->type);
  bool allConst = true;
  for (auto &x : a) allConst &= x->is<Const>();
  if (allConst) return foldConst(op, a, t);
  auto zero = [&] { return Const::make(0.0, t); };
  auto isNeg = [](const Expr &x) { auto p = x->as<Prim>(); return p && p->op == Op::Neg ? p->args[0] : Expr(); };
  if (t->isFloat()) {
    switch (op) {
    case Op::Add:
      if (isConst(a[0], 0)) return a[1];                                  // 0 + e ~> e
      if (isConst(a[1], 0)) return a[0];                                  // e + 0 ~> e
      if (auto n = isNeg(a[1])) return Prim::make(Op::Sub, {a[0], n});    // a + -b ~> a - b
      if (auto n = isNeg(a[0])) return Prim::make(Op::Sub, {a[1], n});    // -a + b ~> b - a
      if (size(a[0]) <= 6 && !mayWrite(a[0]) && print(a[0]) == print(a[1])) // e + e ~> 2 * e
        return Prim::make(Op::Mul, {Const::make(2.0, t), a[0]});
      break;
    case Op::Sub:
      if (isConst(a[1], 0)) return a[0];                                  // e - 0 ~> e
      if (isConst(a[0], 0)) return simplify(Op::Neg, {a[1]}, nullptr);    // 0 - e ~> -e
      if (auto n = isNeg(a[1])) return Prim::make(Op::Add, {a[0], n});    // a - -b ~> a + b
      break;
    case Op::Mul:
      if (isConst(a[0], 0) || isConst(a[1], 0)) return zero();            // 0 * e ~> 0
      if (isConst(a[0], 1)) return a[1];                                  // 1 * e ~> e
      if (isConst(a[1], 1)) return a[0];                                  // e * 1 ~> e
      if (isConst(a[0], -1)) return simplify(Op::Neg, {a[1]}, nullptr);   // -1 * e ~> -e
      if (isConst(a[1], -1)) return simplify(Op::Neg, {a[0]}, nullptr);   // e * -1 ~> -e
      if (auto n = isNeg(a[0]))                                           // -a * b ~> -(a * b)
        return simplify(Op::Neg, {simplify(Op::Mul, {n, a[1]}, nullptr)}, nullptr);
      if (auto n = isNeg(a[1]))                                           // a * -b ~> -(a * b)
        return simplify(Op::Neg, {simplify(Op::Mul, {a[0], n}, nullptr)}, nullptr);
      break;
    case Op::Div:
      if (isConst(a[1], 1)) return a[0];                                  // e / 1 ~> e
      if (isConst(a[0], 0)) return zero();                                // 0 / e ~> 0
      break;
    case Op::Neg:
      if (auto n = isNeg(a[0])) return n;                                 // --e ~> e
      if (auto p = a[0]->as<Prim>(); p && p->op == Op::Sub)               // -(a - b) ~> b - a
        return Prim::make(Op::Sub, {p->args[1], p->args[0]});
      break;
    default: break;
    }
  }
  if (t->isInt() && (op == Op::Add || op == Op::Sub) && a[1]->is<Const>()) {
    // (e ± c1) ± c2 ~> e ± (c2 ± c1): loop bounds such as n - 1 + 1 ~> n
    int64_t c2 = a[1]->as<Const>()->ivalue * (op == Op::Sub ? -1 : 1);
    if (auto in = a[0]->as<Prim>(); in && (in->op == Op::Add || in->op == Op::Sub) && in->args[1]->is<Const>()) {
      int64_t c = c2 + in->args[1]->as<Const>()->ivalue * (in->op == Op::Sub ? -1 : 1);
      if (c == 0) return in->args[0];
      return Prim::make(c > 0 ? Op::Add : Op::Sub, {in->args[0], Const::makeInt(c > 0 ? c : -c)});
    }
    if (c2 == 0) return a[0];                                             // e ± 0 ~> e
  }
  if (op == Op::Cast && sameType(a[0]->type, t)) return a[0];             // cast<T>(e: T) ~> e
  return op == Op::Cast ? Prim::makeCast(a[0], t) : Prim::make(op, std::move(a));
}

class PartialEvaluator {
public:
  // `reserved`: names residual code may not take (parameters, and the
  // d_<param> names the printer gives adjoint arguments).
  // `pure`: helpers known to write none of their parameters.
  PartialEvaluator(const Expr &root, const std::vector<std::string> &reserved,
                   const std::unordered_set<std::string> &pure)
      : pure_(pure) {
    for (auto &n : freeVars(root)) emitted_.insert(n);
    for (auto &n : reserved) emitted_.insert(n);
    // Loop binders keep their names (loopBinder): no residual let may take
    // one, or a loop's binder would shadow the let in the loop's scope and
    // the flat env_ would confuse the two after it.
    struct B : Visitor {
      std::unordered_set<std::string> *names;
      void visit(const Fold *f) override { names->insert(f->index); names->insert(f->state); Visitor::visit(f); }
      void visit(const While *w) override { names->insert(w->state); Visitor::visit(w); }
      void visit(const Build *b) override { names->insert(b->index); Visitor::visit(b); }
      void visit(const Sum *m) override { names->insert(m->index); Visitor::visit(m); }
    } b;
    b.names = &emitted_;
    b.visitExpr(root);
  }

  Expr run(const Expr &e) { return block(e); }

private:
  using Lets = std::vector<std::pair<std::string, Expr>>;
  const std::unordered_set<std::string> &pure_;
  std::unordered_map<std::string, Expr> env_;   // static values of variables
  std::unordered_set<std::string> emitted_;     // residual binder names
  std::unordered_map<std::string, std::string> cse_;
  std::unordered_map<std::string, std::string> memoryKeys_; // cse_ keys that read an array -> the array
  std::vector<std::string> cseLog_;
  std::unordered_map<std::string, int> suffix_;
  Lets *cur_ = nullptr;

  // Evaluates e in a block of its own: residual lets are kept inside it.
  Expr block(const Expr &e) {
    Lets lets;
    Lets *saved = cur_;
    cur_ = &lets;
    size_t cseMark = cseLog_.size();
    Expr v = reify(pe(e));
    while (cseLog_.size() > cseMark) {
      cse_.erase(cseLog_.back());
      cseLog_.pop_back();
    }
    cur_ = saved;
    for (auto it = lets.rbegin(); it != lets.rend(); ++it) v = Let::make(it->first, it->second, v);
    return v;
  }

  // Residual names: the binder's name without the numeric suffix that
  // fresh-name supply added to continuation parameters (d_x1_7 -> d_x1),
  // then the first free variant.
  static std::string stripSuffix(const std::string &hint) {
    auto us = hint.rfind('_');
    if (us != std::string::npos && us + 1 < hint.size() && us > 0 &&
        hint.find_first_not_of("0123456789", us + 1) == std::string::npos)
      return hint.substr(0, us);
    return hint;
  }

  std::string residualName(const std::string &hint) {
    std::string base = stripSuffix(hint);
    std::string n = base;
    int &k = suffix_[base];
    while (!emitted_.insert(n).second) n = base + "_" + std::to_string(++k);
    return n;
  }

  // Emits `let name = v` (after CSE) and returns the variable.
  Expr emit(const std::string &hint, const Expr &v) {
    std::string key;
    if (mayWrite(v)) forgetReadsWrittenBy(v);
    if (auto x = v->as<ir::Index>(); x && x->array->is<Var>()) {
      key = print(v);
      auto it = cse_.find(key);
      if (it != cse_.end()) return Var::make(it->second, v->type);
      std::string n = residualName(hint);
      cur_->push_back({n, v});
      cse_[key] = n;
      cseLog_.push_back(key);
      memoryKeys_.insert({key, x->array->as<Var>()->name});
      return Var::make(n, v->type);
    }
    if ((v->is<Prim>() || v->is<Call>() || v->is<ir::Size>()) && !readsMemory(v) && !mayWrite(v)) {
      key = print(v);
      auto it = cse_.find(key);
      if (it != cse_.end()) return Var::make(it->second, v->type);
    }
    std::string n = residualName(hint);
    cur_->push_back({n, v});
    if (!key.empty()) {
      cse_[key] = n;
      cseLog_.push_back(key);
    }
    // Store-to-load forwarding: after a[i] = x, a read of a[i] is x (until
    // something writes a again). A tape read in the iteration that wrote it
    // is then the value itself, and the tape, written only, goes.
    if (auto st = v->as<Store>(); st && st->mode == Store::Mode::Set && st->path.empty() && st->array->is<Var>())
      if (auto x = st->value->as<Var>()) {
        std::string k = print(ir::Index::make(st->array, st->index));
        cse_[k] = x->name;
        cseLog_.push_back(k);
        memoryKeys_.insert({k, st->array->as<Var>()->name});
      }
    return Var::make(n, v->type);
  }

  // A value in expression position: static tuples become tuple
  // expressions; lambdas may not escape.
  Expr reify(const Expr &v) {
    if (v->is<Lambda>()) throw IRError("optimise: a continuation escapes (not linear?)");
    if (auto t = v->as<ir::Tuple>()) {
      std::vector<Expr> es;
      bool changed = false;
      for (auto &x : t->elems) {
        es.push_back(reify(x));
        changed |= es.back() != x;
      }
      if (!changed) return v;
      return t->type->isStruct() ? ir::Tuple::makeStruct(t->type, es) : ir::Tuple::make(es);
    }
    return v;
  }

  // Makes v duplicable: atoms stay, everything else is let-bound.
  Expr atomize(const std::string &hint, const Expr &v) {
    if (isAtom(v) || v->is<Lambda>()) return v;
    if (auto t = v->as<ir::Tuple>()) {
      std::vector<Expr> es;
      std::string base = stripSuffix(hint);
      for (size_t i = 0; i < t->elems.size(); ++i) {
        std::string h = t->type->isStruct() ? base + "_" + t->type->fieldNames[i] : base + "_" + std::to_string(i);
        es.push_back(atomize(h, t->elems[i]));
      }
      return t->type->isStruct() ? ir::Tuple::makeStruct(t->type, es) : ir::Tuple::make(es);
    }
    if (v->is<If>() && v->type->isTuple() && !mayWrite(v)) return splitIf(hint, v);
    return emit(hint, v);
  }

  // let x = if c then <a1..an> else <b1..bn>: components equal in both
  // branches are hoisted out; the rest stay in one residual if.
  Expr splitIf(const std::string &hint, const Expr &ifExpr) {
    const If *i = ifExpr->as<If>();
    auto tail = [](Expr e) {
      while (auto l = e->as<Let>()) e = l->body;
      return e;
    };
    auto tt = tail(i->thenE)->as<ir::Tuple>(), te = tail(i->elseE)->as<ir::Tuple>();
    if (!tt || !te) return emit(hint, ifExpr);
    std::vector<int> kept;
    for (int k = 0; k < int(tt->elems.size()); ++k)
      if (!(isAtom(tt->elems[k]) && sameAtom(tt->elems[k], te->elems[k]) && !dependsOnBranch(tt->elems[k], i)))
        kept.push_back(k);
    auto rebuild = [&](const Expr &br) {
      std::function<Expr(const Expr &)> go = [&](const Expr &e) -> Expr {
        if (auto l = e->as<Let>()) return Let::make(l->name, l->value, go(l->body));
        auto t = e->as<ir::Tuple>();
        if (kept.size() == 1) return t->elems[kept[0]];
        std::vector<Expr> es;
        for (int k : kept) es.push_back(t->elems[k]);
        return ir::Tuple::make(es);
      };
      return go(br);
    };
    Expr r;
    if (!kept.empty()) r = emit(hint, If::make(i->cond, rebuild(i->thenE), rebuild(i->elseE)));
    std::vector<Expr> es;
    size_t pos = 0;
    for (int k = 0; k < int(tt->elems.size()); ++k) {
      if (pos < kept.size() && kept[pos] == k) {
        es.push_back(kept.size() == 1 ? r : Proj::make(r, int(pos)));
        ++pos;
      } else {
        es.push_back(tt->elems[k]);
      }
    }
    return tt->type->isStruct() ? ir::Tuple::makeStruct(tt->type, es) : ir::Tuple::make(es);
  }

  // Whether atom e mentions a variable bound inside the branches of i.
  static bool dependsOnBranch(const Expr &e, const If *i) {
    std::unordered_set<std::string> local;
    for (const Expr &br : {i->thenE, i->elseE})
      for (Expr c = br; c->is<Let>(); c = c->as<Let>()->body) local.insert(c->as<Let>()->name);
    for (auto &v : freeVars(e))
      if (local.count(v)) return true;
    return false;
  }

  void bind(const std::string &name, const Expr &v) { env_[name] = atomize(name, v); }

  // The algebraic rules again, after a substitution put constants in.
  static Expr resimplify(const Expr &e) {
    struct S : Mutator {
      Expr visit(const Prim *n, const Expr &self) override {
        Expr r = Mutator::visit(n, self);
        auto p = r->as<Prim>();
        return p ? simplify(p->op, p->args, p->type) : r;
      }
    } s;
    return s.mutate(e);
  }

  // fold with state (s_0..s_n) whose body returns s_k unchanged:
  //   s_k is its initial value throughout ~> substitute it, drop it from
  //   the state (a reduction's adjoint loop carries a constant cotangent).
  Expr invariantState(const Expr &e) {
    auto f = e->as<Fold>();
    const TypeP &st = f->init->type;
    if (st->isScalar()) return invariantScalarState(f, e);
    if (!st->isTuple() || st->isStruct() || st->elems.empty()) return e;
    Expr tail = f->body;
    while (auto l = tail->as<Let>()) tail = l->body;
    auto tt = tail->as<ir::Tuple>();
    auto whole = tail->as<Var>();
    if (!tt && !(whole && whole->name == f->state)) return e;
    std::vector<int> kept, fixed;
    for (int k = 0; k < int(st->elems.size()); ++k) {
      if (!tt) {
        fixed.push_back(k);
        continue;
      }
      (isStateComponent(tt->elems[k], Proj::make(Var::make(f->state, st), k)) ? fixed : kept).push_back(k);
    }
    if (fixed.empty()) return e;
    // The initial components become atoms that may be duplicated.
    auto initTuple = f->init->as<ir::Tuple>();
    std::vector<Expr> init0;
    for (int k = 0; k < int(st->elems.size()); ++k)
      init0.push_back(atomize(f->state + "_init", initTuple ? initTuple->elems[k] : Proj::make(f->init, k)));
    std::vector<TypeP> kt;
    std::vector<Expr> kinit;
    for (int k : kept) {
      kt.push_back(st->elems[k]);
      kinit.push_back(init0[k]);
    }
    std::string ns = residualName(f->state);
    Expr nsv = Var::make(ns, Type::tuple(kt));
    // Body: s#k ~> init_k (fixed) or s'#j (kept); result tuple shrinks.
    struct Rewrite : Mutator {
      std::string state;
      std::vector<Expr> repl;
      Expr visit(const Proj *n, const Expr &self) override {
        auto v = n->tuple->as<Var>();
        if (v && v->name == state) return repl[n->index];
        return Mutator::visit(n, self);
      }
      Expr visit(const Var *n, const Expr &self) override { // the whole state
        return n->name == state ? ir::Tuple::make(repl) : self;
      }
    } rw;
    rw.state = f->state;
    for (int k = 0, j = 0; k < int(st->elems.size()); ++k) {
      bool isKept = std::find(kept.begin(), kept.end(), k) != kept.end();
      rw.repl.push_back(isKept ? Proj::make(nsv, j++) : init0[k]);
    }
    std::function<Expr(const Expr &)> shrink = [&](const Expr &b) -> Expr {
      if (auto l = b->as<Let>()) return Let::make(l->name, rw.mutate(l->value), shrink(l->body));
      std::vector<Expr> es;
      for (int k : kept) es.push_back(rw.mutate(b->as<ir::Tuple>()->elems[k]));
      return ir::Tuple::make(es); // (the whole state returned: nothing kept)
    };
    Expr body = resimplify(shrink(f->body));
    std::vector<Expr> out(st->elems.size());
    for (int k : fixed) out[k] = init0[k];
    if (!kept.empty()) {
      Expr loop = emit(f->state, Fold::make(f->lo, f->hi, ir::Tuple::make(kinit), f->index, ns, body, f->reversed));
      for (size_t j = 0; j < kept.size(); ++j) out[kept[j]] = Proj::make(loop, int(j));
    } else if (mayWrite(body)) {
      emit("_", Fold::make(f->lo, f->hi, ir::Tuple::make({}), f->index, ns, body, f->reversed));
    }
    return ir::Tuple::make(out);
  }

  // Whether `e` is the state component `c` (s#k).
  static bool isStateComponent(const Expr &e, const Expr &c) { return print(e) == print(c); }

  // Leaves of the state that start at 0 and stay 0: assume a set Z of
  // zero-initialised leaves is 0, simplify the body under that assumption,
  // keep in Z the leaves whose next value is then 0, repeat until Z is
  // stable. Such a leaf is a cotangent that never reaches the result: it is
  // 0 (computing it could only give 0 · inf = NaN where dead forward state
  // overflowed). The body then reads 0 for it and hands it back unchanged,
  // which invariantState removes.
  // Paths to a fold state's float leaves.
  static std::vector<std::vector<int>> floatLeaves(const TypeP &st) {
    std::vector<std::vector<int>> leaves;
    std::function<void(const TypeP &, std::vector<int> &)> collect = [&](const TypeP &t, std::vector<int> &path) {
      if (t->isFloat()) leaves.push_back(path);
      if (!t->isTuple()) return;
      for (int k = 0; k < int(t->elems.size()); ++k) {
        path.push_back(k);
        collect(t->elems[k], path);
        path.pop_back();
      }
    };
    std::vector<int> root;
    collect(st, root);
    return leaves;
  }
  static Expr leafAt(Expr x, const std::vector<int> &path) {
    for (int k : path) {
      if (auto t = x->as<ir::Tuple>()) x = t->elems[k];
      else return nullptr;
    }
    return x;
  }
  static Expr readLeaf(const std::string &var, const TypeP &t, const std::vector<int> &path) {
    Expr x = Var::make(var, t);
    for (int k : path) x = Proj::make(x, k);
    return x;
  }
  // The state leaves of a fold that start at 0 and stay 0 (an optimistic
  // fixpoint: assume every leaf that starts at 0 stays 0, drop those the
  // body makes non-zero under that assumption, repeat).
  static std::set<std::vector<int>> zeroLeaves(const Fold *f) {
    const TypeP &st = f->init->type;
    Expr tt = f->body;
    while (auto l = tt->as<Let>()) tt = l->body;
    std::set<std::vector<int>> Z;
    // (a bare float: the path []; a tuple handed back whole is read leaf by leaf)
    if (st->isTuple() ? !(tt->is<ir::Tuple>() || tt->is<Var>()) : !st->isFloat()) return Z;
    for (auto &p : floatLeaves(st))
      if (Expr x = leafAt(f->init, p); x && isZeroValue(x)) Z.insert(p);
    while (!Z.empty()) {
      std::unordered_map<std::string, Expr> consts; // printed reads of Z leaves -> 0
      for (auto &p : Z) consts[print(readLeaf(f->state, st, p))] = Const::zero(leafAt(f->init, p)->type);
      Expr tail = constantTail(f->body, consts);
      std::set<std::vector<int>> next;
      for (auto &p : Z)
        if (Expr x = leafAt(tail, p); x && isZeroValue(x)) next.insert(p);
      if (next == Z) break;
      Z = next;
    }
    return Z;
  }

  Expr zeroState(const Expr &e) {
    auto f = e->as<Fold>();
    const TypeP &st = f->init->type;
    if (!st->isTuple()) return e;
    std::set<std::vector<int>> Z = zeroLeaves(f);
    auto read = [&](const std::vector<int> &path) { return readLeaf(f->state, st, path); };
    if (Z.empty()) return e;
    // Rewrite: reads of Z leaves are 0; the tail hands them back unchanged.
    struct R : Mutator {
      std::unordered_map<std::string, Expr> zeros;
      Expr visit(const Proj *n, const Expr &self) override {
        auto it = zeros.find(print(self));
        return it != zeros.end() ? it->second : Mutator::visit(n, self);
      }
    } r;
    for (auto &p : Z) r.zeros[print(read(p))] = Const::zero(leafAt(f->init, p)->type);
    std::function<Expr(const Expr &, std::vector<int> &)> handBack = [&](const Expr &x, std::vector<int> &path) -> Expr {
      if (Z.count(path)) return read(path);
      auto t = x->as<ir::Tuple>();
      bool under = std::any_of(Z.begin(), Z.end(), [&](const std::vector<int> &z) {
        return z.size() > path.size() && std::equal(path.begin(), path.end(), z.begin());
      });
      if (!t && !(under && x->is<Var>() && x->type->isTuple())) return r.mutate(x);
      std::vector<Expr> es;
      for (int k = 0; k < int(x->type->elems.size()); ++k) {
        path.push_back(k);
        es.push_back(handBack(t ? t->elems[size_t(k)] : Proj::make(x, k), path)); // (a variable: its leaves)
        path.pop_back();
      }
      return x->type->isStruct() ? ir::Tuple::makeStruct(x->type, es) : ir::Tuple::make(es);
    };
    std::function<Expr(const Expr &)> body = [&](const Expr &b) -> Expr {
      if (auto l = b->as<Let>()) return Let::make(l->name, r.mutate(l->value), body(l->body));
      std::vector<int> path;
      return handBack(b, path);
    };
    return Fold::make(f->lo, f->hi, f->init, f->index, f->state, resimplify(body(f->body)), f->reversed);
  }

  // The tail of `e` with what is known constant propagated through its
  // lets (`known`: printed expressions -> constants); for the test above.
  static Expr constantTail(const Expr &e, std::unordered_map<std::string, Expr> known) {
    struct S : Mutator {
      std::unordered_map<std::string, Expr> *known;
      Expr mutate(const Expr &x) override {
        auto it = known->find(print(x));
        if (it != known->end()) return it->second;
        Expr y = Mutator::mutate(x);
        if (auto p = y->as<Prim>()) return simplify(p->op, p->args, p->type);
        if (auto pr = y->as<Proj>())
          if (auto t = pr->tuple->as<ir::Tuple>()) return t->elems[pr->index];
        if (auto i = y->as<If>())
          if (auto c = i->cond->as<Const>()) return c->ivalue ? i->thenE : i->elseE;
        // a transpose is linear: J^T 0 = 0 (nothing to add into buffers either)
        if (auto pb = y->as<Pullback>(); pb && pb->buffers.empty() && isZeroValue(pb->cotangent)) return Const::zero(pb->type);
        return y;
      }
    } s;
    s.known = &known;
    // a tuple value leaf by leaf (`s` is `(s#0, s#1)`), with what is known
    std::function<Expr(const Expr &)> expand = [&](const Expr &x) -> Expr {
      if (!x->type->isTuple() || x->is<ir::Tuple>()) return s.mutate(x);
      std::vector<Expr> es;
      for (int k = 0; k < int(x->type->elems.size()); ++k) es.push_back(expand(Proj::make(x, k)));
      return x->type->isStruct() ? ir::Tuple::makeStruct(x->type, es) : ir::Tuple::make(es);
    };
    Expr cur = e;
    while (auto l = cur->as<Let>()) {
      Expr v = s.mutate(l->value);
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

  // The same for one scalar of state: fold .. from s = init -> (lets) s
  //   ~> init (and the loop, stateless, when its lets write memory)
  Expr invariantScalarState(const Fold *f, const Expr &e) {
    Expr tail = f->body;
    while (auto l = tail->as<Let>()) tail = l->body;
    auto whole = tail->as<Var>();
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

  // A write invalidates the remembered reads of what it writes (a call
  // that may write: every remembered read).
  void forgetReadsWrittenBy(const Expr &v) {
    std::unordered_set<std::string> written;
    arraysTouched(v, nullptr, &written);
    const bool call = hasCall(v);
    for (auto it = memoryKeys_.begin(); it != memoryKeys_.end();) {
      if (call || written.count(it->second)) {
        cse_.erase(it->first);
        it = memoryKeys_.erase(it);
      } else {
        ++it;
      }
    }
  }

  // A loop's index and state stay variables (they change every iteration).
  void loopBinder(const std::string &name, const TypeP &t) {
    emitted_.insert(name);
    env_[name] = Var::make(name, t);
  }

  // The components π_0 v .. π_n v of one value v (of the same type) are v.
  static Expr etaTuple(const std::vector<Expr> &es, const TypeP &t) {
    if (es.empty()) return nullptr;
    Expr whole;
    for (size_t i = 0; i < es.size(); ++i) {
      auto p = es[i]->as<Proj>();
      if (!p || p->index != int(i) || !isAtom(p->tuple)) return nullptr;
      if (!whole) whole = p->tuple;
      else if (!sameAtom(whole, p->tuple)) return nullptr;
    }
    return sameType(whole->type, t) ? whole : nullptr;
  }

  Expr pe(const Expr &e) {
    switch (e->kind) {
    case Kind::Const: return e;
    case Kind::Var: {
      auto it = env_.find(e->as<Var>()->name);
      return it == env_.end() ? e : it->second;
    }
    case Kind::Prim: {
      auto p = e->as<Prim>();
      std::vector<Expr> as;
      for (auto &a : p->args) {
        Expr v = reify(pe(a));
        as.push_back(v->is<If>() ? emit("t", v) : v);
      }
      Expr r = simplify(p->op, std::move(as), p->type);
      // CSE also for nested subexpressions: a partial derivative such as
      // cos(t) reuses the forward pass's value of cos(t).
      if (r->is<Prim>() && !readsMemory(r)) {
        auto it = cse_.find(print(r));
        if (it != cse_.end()) return Var::make(it->second, r->type);
      }
      return r;
    }
    case Kind::Let: {
      Expr c = e;
      while (auto l = c->as<Let>()) {
        bind(l->name, pe(l->value));
        c = l->body;
      }
      return pe(c);
    }
    case Kind::If: {
      auto i = e->as<If>();
      Expr c = reify(pe(i->cond));
      if (auto k = c->as<Const>()) return pe(k->ivalue ? i->thenE : i->elseE);
      Expr t = block(i->thenE), f = block(i->elseE);
      if (isAtom(t) && sameAtom(t, f)) return t;                          // if c then a else a ~> a
      return If::make(c, t, f);
    }
    case Kind::Tuple: {
      auto t = e->as<ir::Tuple>();
      std::vector<Expr> es;
      for (auto &x : t->elems) es.push_back(pe(x));
      if (Expr whole = etaTuple(es, t->type)) return whole;                // <π_0 v, .., π_n v> ~> v
      return t->type->isStruct() ? ir::Tuple::makeStruct(t->type, es) : ir::Tuple::make(es);
    }
    case Kind::Proj: {
      auto p = e->as<Proj>();
      Expr t = pe(p->tuple);
      if (auto tu = t->as<ir::Tuple>()) return tu->elems[p->index];      // π_i <e..> ~> e_i
      return Proj::make(atomize("t", t), p->index);
    }
    case Kind::Call: {
      auto c = e->as<Call>();
      std::vector<Expr> as;
      for (auto &a : c->args) as.push_back(reify(pe(a)));
      return Call::make(c->callee, std::move(as), c->type);
    }
    case Kind::Pullback: {
      auto c = e->as<Pullback>();
      std::vector<Expr> as;
      for (auto &a : c->args) as.push_back(reify(pe(a)));
      Expr ct = reify(pe(c->cotangent));
      std::vector<Expr> bs;
      for (auto &b : c->buffers) bs.push_back(reify(pe(b)));
      // J^T g is linear in the result's cotangent and, when g writes
      // arrays, in their cotangents (in the buffers): only a g known to
      // write nothing is skipped for a zero result cotangent.
      bool onlyResult = c->buffers.empty() || pure_.count(c->callee);
      if (onlyResult && isZeroValue(ct)) return Const::zero(c->type);     // J^T g applied to 0 is 0
      Expr pb = Pullback::make(c->callee, std::move(as), ct, c->type, std::move(bs));
      // When the cotangent is 0 at run time (the losing side of a max, an
      // untaken path), skip the call.
      if (onlyResult && ct->type->isFloat() && !ct->is<Const>())
        return If::make(Prim::make(Op::Ne, {ct, Const::make(0.0, ct->type)}), pb, Const::zero(c->type));
      return pb;
    }
    case Kind::Lambda: return e;
    case Kind::Index: {
      auto x = e->as<ir::Index>();
      return ir::Index::make(reify(pe(x->array)), reify(pe(x->index)));
    }
    case Kind::Size: return ir::Size::make(reify(pe(e->as<ir::Size>()->array)));
    case Kind::NewArray:
      return NewArray::make(reify(pe(e->as<NewArray>()->size)), e->type->elem(), e->as<NewArray>()->scratch);
    case Kind::Store: {
      auto x = e->as<Store>();
      Expr val = reify(pe(x->value));
      if (x->mode == Store::Mode::Add && isZeroValue(val)) return ir::Tuple::make({}); // a[i] += 0 ~> ()
      return Store::make(reify(pe(x->array)), reify(pe(x->index)), val, x->mode, x->path);
    }
    case Kind::Fold: {
      auto f = e->as<Fold>();
      Expr lo = reify(pe(f->lo)), hi = reify(pe(f->hi)), init = reify(pe(f->init));
      loopBinder(f->index, Type::i64());
      loopBinder(f->state, f->init->type);
      forgetReadsWrittenBy(f->body); // iteration k+1 sees iteration k's writes
      Expr body = block(f->body);
      return invariantState(zeroState(Fold::make(lo, hi, init, f->index, f->state, body, f->reversed)));
    }
    case Kind::While: {
      auto w = e->as<While>();
      Expr init = reify(pe(w->init));
      loopBinder(w->state, w->init->type);
      forgetReadsWrittenBy(w->body);
      Expr cond = block(w->cond), body = block(w->body);
      return While::make(init, w->state, cond, body);
    }
    case Kind::App: {
      auto a = e->as<App>();
      Expr f = pe(a->fn);
      auto lam = f->as<Lambda>();
      if (!lam) throw IRError("optimise: application of an unknown function");
      std::vector<Expr> vs;
      for (auto &x : a->args) vs.push_back(pe(x));
      for (size_t k = 0; k < vs.size(); ++k) bind(lam->params[k].name, vs[k]); // β
      return pe(lam->body);
    }
    case Kind::Build: case Kind::Sum:
      throw IRError("optimise: build/sum are lowered to loops first (ir::lowerParallel)");
    }
    return e;
  }
};

// Dead code elimination: drops lets whose variable is never used. Names
// are unique, so one use count per name suffices.
class DeadCode {
public:
  Expr run(const Expr &e) {
    findWriteOnlyArrays(e);
    return go(e);
  }

private:
  std::unordered_map<std::string, int> uses_;
  std::unordered_set<std::string> writeOnly_; // local arrays nothing reads: their stores are dead

  void findWriteOnlyArrays(const Expr &root) {
    struct A : Visitor {
      std::unordered_set<std::string> local, read;
      void visit(const Let *n) override {
        if (n->value->is<NewArray>()) local.insert(n->name);
        Visitor::visit(n);
      }
      void visit(const Var *n) override { read.insert(n->name); }
      void visit(const Store *n) override { // the target of a store is not a read
        if (!n->array->is<Var>()) visitExpr(n->array);
        visitExpr(n->index);
        visitExpr(n->value);
      }
    } a;
    a.visitExpr(root);
    for (auto &n : a.local)
      if (!a.read.count(n)) writeOnly_.insert(n);
  }

  bool deadStore(const Expr &v) const {
    auto st = v->as<Store>();
    auto arr = st ? st->array->as<Var>() : nullptr;
    return arr && writeOnly_.count(arr->name);
  }

  void count(const Expr &e) {
    for (auto &v : freeVars(e)) ++uses_[v];
  }

  Expr go(const Expr &e) {
    if (e->is<Let>()) {
      std::vector<const Let *> chain;
      Expr c = e;
      while (auto l = c->as<Let>()) {
        chain.push_back(l);
        c = l->body;
      }
      Expr body = go(c);
      for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
        const Expr &v = (*it)->value;
        if (deadStore(v)) continue;
        if (uses_[(*it)->name] == 0 && !mayWrite(v)) continue;
        body = Let::make((*it)->name, go(v), body);
      }
      return body;
    }
    if (auto f = e->as<Fold>()) {
      Expr b = go(f->body), i0 = go(f->init), l = go(f->lo), h = go(f->hi);
      return b == f->body && i0 == f->init && l == f->lo && h == f->hi
                 ? e
                 : Fold::make(l, h, i0, f->index, f->state, b, f->reversed);
    }
    if (auto w = e->as<While>()) {
      Expr b = go(w->body), c = go(w->cond), i0 = go(w->init);
      return b == w->body && c == w->cond && i0 == w->init ? e : While::make(i0, w->state, c, b);
    }
    if (auto t = e->as<ir::Tuple>()) {
      bool changed = false;
      std::vector<Expr> es;
      for (auto &x : t->elems) {
        es.push_back(go(x));
        changed |= es.back() != x;
      }
      if (!changed) return e;
      return t->type->isStruct() ? ir::Tuple::makeStruct(t->type, es) : ir::Tuple::make(es);
    }
    if (auto i = e->as<If>()) {
      Expr t = go(i->thenE), f = go(i->elseE), c = go(i->cond);
      return t == i->thenE && f == i->elseE && c == i->cond ? e : If::make(c, t, f);
    }
    // Leaves and flat expressions: count their variables.
    count(e);
    return e;
  }
};

} // namespace

// Forward substitution of single-use temporaries (Fig. 12: let x = e1 in
// e2 ~> e2[e1/x] when x occurs once): a temporary introduced by UNF or a
// cotangent is folded into its only use when that use is in the same block
// (never into a branch) and the result stays small. The source's own
// variables stay named const locals.
class SingleUse {
public:
  explicit SingleUse(const std::vector<std::string> &keep) : keep_(keep.begin(), keep.end()) {}

  Expr run(const Expr &e) {
    countAll(e);
    return go(e);
  }

private:
  std::unordered_map<std::string, int> uses_;
  std::unordered_set<std::string> keep_;
  static constexpr size_t kMaxSize = 9;

  void countAll(const Expr &e) {
    struct C : Visitor {
      std::unordered_map<std::string, int> *uses;
      void visit(const Var *v) override { ++(*uses)[v->name]; }
    } c;
    c.uses = &uses_;
    c.visitExpr(e);
  }

  bool temporary(const std::string &n) const {
    if (keep_.count(n)) return false;
    return n == "t" || n.rfind("t_", 0) == 0 || n.rfind("d_", 0) == 0;
  }

  // Occurrences of `n` outside nested blocks (if/let) of `e`.
  static int shallow(const Expr &e, const std::string &n) {
    switch (e->kind) {
    case Kind::Var: return e->as<Var>()->name == n;
    case Kind::Const: case Kind::Let: case Kind::If: case Kind::Lambda: return 0;
    case Kind::Prim: { int k = 0; for (auto &a : e->as<Prim>()->args) k += shallow(a, n); return k; }
    case Kind::Proj: return shallow(e->as<Proj>()->tuple, n);
    case Kind::Index: return shallow(e->as<ir::Index>()->array, n) + shallow(e->as<ir::Index>()->index, n);
    case Kind::Store: return shallow(e->as<Store>()->index, n) + shallow(e->as<Store>()->value, n);
    case Kind::Tuple: { int k = 0; for (auto &a : e->as<ir::Tuple>()->elems) k += shallow(a, n); return k; }
    default: return 0; // calls and pullbacks keep their arguments named
    }
  }

  Expr go(const Expr &e) {
    if (auto i = e->as<If>()) {
      Expr t = go(i->thenE), f = go(i->elseE);
      return t == i->thenE && f == i->elseE ? e : If::make(i->cond, t, f);
    }
    if (auto f = e->as<Fold>()) {
      Expr b = go(f->body);
      return b == f->body ? e : Fold::make(f->lo, f->hi, f->init, f->index, f->state, b, f->reversed);
    }
    if (auto w = e->as<While>()) {
      Expr c = go(w->cond), b = go(w->body);
      return c == w->cond && b == w->body ? e : While::make(w->init, w->state, c, b);
    }
    if (!e->is<Let>()) return e;
    std::vector<std::pair<std::string, Expr>> lets;
    Expr c = e;
    while (auto l = c->as<Let>()) {
      lets.push_back({l->name, go(l->value)});
      c = l->body;
    }
    Expr body = go(c);
    std::vector<bool> gone(lets.size(), false);
    for (size_t i = 0; i < lets.size(); ++i) {
      auto &[name, value] = lets[i];
      if (!temporary(name) || uses_[name] != 1 || !(value->is<Prim>() || value->is<ir::Index>()) ||
          size(value) > kMaxSize)
        continue;
      // Its single use: the first later let (or the body) that mentions it;
      // a memory read never moves past a write to the array it reads.
      bool done = false;
      for (size_t j = i + 1; j < lets.size() && !done; ++j) {
        if (gone[j]) continue;
        if (countUses(lets[j].second, name) == 0) {
          if (conflicts(value, lets[j].second)) done = true;
          continue;
        }
        if (shallow(lets[j].second, name) == 1 && !conflicts(value, lets[j].second)) {
          lets[j].second = substitute(lets[j].second, name, value);
          gone[i] = true;
        }
        done = true;
      }
      if (!done && shallow(body, name) == 1) {
        body = substitute(body, name, value);
        gone[i] = true;
      }
    }
    // a[i] += u; (lets not touching a); a[i] += v  ~>  (lets); a[i] += u + v
    // (one update per element)
    for (size_t i = 0; i < lets.size(); ++i) {
      if (gone[i]) continue;
      auto s1 = lets[i].second->as<Store>();
      if (!s1 || s1->mode != Store::Mode::Add || !s1->value->type->isScalar()) continue;
      // the buffer: a variable, or a row d_a[i] of one (i an atom)
      const Node *root = s1->array.get();
      while (auto ix = root->as<ir::Index>()) {
        if (!isAtom(ix->index)) break;
        root = ix->array.get();
      }
      if (!root->is<Var>()) continue;
      const std::string &a = root->as<Var>()->name;
      size_t j = i + 1;
      while (j < lets.size() &&
             (gone[j] || (!lets[j].second->is<Store>() && !mayWrite(lets[j].second) && countUses(lets[j].second, a) == 0)))
        ++j;
      if (j == lets.size()) continue;
      auto s2 = lets[j].second->as<Store>();
      if (!s2 || s2->mode != Store::Mode::Add || print(s1->array) != print(s2->array) || print(s1->index) != print(s2->index) ||
          s1->path != s2->path)
        continue;
      lets[j].second = Store::make(s1->array, s1->index, simplify(Op::Add, {s1->value, s2->value}, nullptr), Store::Mode::Add, s1->path);
      gone[i] = true;
    }
    for (size_t i = lets.size(); i-- > 0;)
      if (!gone[i]) body = Let::make(lets[i].first, lets[i].second, body);
    return body;
  }
};

// Rewrites every let chain (block) of an expression, innermost first:
// subclasses see one chain at a time and may change its lets and body.
class BlockRewriter {
public:
  virtual ~BlockRewriter() = default;
  bool changed = false;
  using Lets = std::vector<std::pair<std::string, Expr>>;

  Expr go(const Expr &e) {
    if (auto i = e->as<If>()) return If::make(i->cond, go(i->thenE), go(i->elseE));
    if (auto f = e->as<Fold>()) return Fold::make(f->lo, f->hi, f->init, f->index, f->state, go(f->body), f->reversed);
    if (auto w = e->as<While>()) return While::make(w->init, w->state, w->cond, go(w->body));
    if (!e->is<Let>()) return e;
    Lets lets;
    Expr c = e;
    while (auto l = c->as<Let>()) {
      lets.push_back({l->name, go(l->value)});
      c = l->body;
    }
    Expr body = go(c);
    chain(lets, body);
    for (size_t k = lets.size(); k-- > 0;) body = Let::make(lets[k].first, lets[k].second, body);
    return body;
  }

protected:
  virtual void chain(Lets &lets, Expr &body) = 0;
};

// Fusion of a loop with its adjoint sweep:
//   let r = fold i in [lo, hi) from s = init -> F
//   ...                                           (nothing the sweep reads)
//   let _ = fold j in reversed [lo, hi) from () -> B
//   ~>  let r = fold i in [lo, hi) from s = init -> (F's lets; B[i/j]; F's result)
// Valid when the sweep carries no state and only adds into arrays that
// neither loop reads (+= commutes, so its iterations may run in any order),
// and the only memory F writes that B reads is what F wrote in the same
// iteration (the tape of the loop's state). Then one pass computes the
// value and the gradient, as a person would write it, and CSE shares the
// forward values with the sweep's recomputation.
class LoopFusion : public BlockRewriter {
public:
  explicit LoopFusion(const std::unordered_set<std::string> &pureCallees) : pure_(pureCallees) {}

protected:
  void chain(Lets &lets, Expr &) override { // only the lets are fused
    for (size_t k = 0; k < lets.size(); ++k) {
      auto f1 = lets[k].second->as<Fold>();
      if (!f1) continue;
      std::unordered_set<std::string> between{lets[k].first};
      std::vector<Expr> passed; // what the sweep would move before
      for (size_t m = k + 1; m < lets.size(); ++m) {
        auto f2 = lets[m].second->as<Fold>();
        if (f2 && fusable(f1, f2, between) && commutes(f1, f2, passed)) {
          lets[k].second = fuse(f1, f2);
          lets.erase(lets.begin() + long(m));
          changed = true;
          break;
        }
        between.insert(lets[m].first);
        passed.push_back(lets[m].second);
      }
    }
    // A sweep left on its own runs forwards: its iterations commute, and
    // memory is read in the order the forward loop read it.
    for (auto &[name, value] : lets)
      if (auto f = value->as<Fold>(); f && f->reversed && f->init->type->isUnit() && commutative(f->body))
        value = Fold::make(f->lo, f->hi, f->init, f->index, f->state, f->body, false);
  }

private:
  const std::unordered_set<std::string> &pure_;

  // Arrays read and written, with the printed indices of reads and stores.
  struct Access {
    std::unordered_map<std::string, std::set<std::string>> reads, stores;
    std::unordered_set<std::string> accumulated; // only += stores / pullback buffers
    bool setStores = false, unknownCalls = false;
  };
  Access access(const Expr &e) {
    struct A : Visitor {
      Access *acc;
      const std::unordered_set<std::string> *pure;
      static std::string name(const Expr &a) { auto v = a->as<Var>(); return v ? v->name : std::string("?"); }
      void visit(const Index *n) override { acc->reads[name(n->array)].insert(print(n->index)); Visitor::visit(n); }
      void visit(const Store *n) override {
        acc->stores[name(n->array)].insert(print(n->index));
        if (n->mode == Store::Mode::Add) acc->accumulated.insert(name(n->array));
        else acc->setStores = true;
        visitExpr(n->index);
        visitExpr(n->value);
      }
      void visit(const Pullback *n) override {
        if (!pure->count(n->callee)) acc->unknownCalls |= !n->buffers.empty();
        for (auto &b : n->buffers) {
          acc->stores[name(b)].insert("*");
          acc->accumulated.insert(name(b));
        }
        for (auto &a : n->args) if (a->type->isArray()) acc->reads[name(a)].insert("*");
        Visitor::visit(n);
      }
      void visit(const Call *n) override {
        bool arrays = false;
        for (auto &a : n->args) if (a->type->isArray()) { arrays = true; acc->reads[name(a)].insert("*"); }
        if (arrays && !pure->count(n->callee)) acc->unknownCalls = true;
        Visitor::visit(n);
      }
    } a;
    Access acc;
    a.acc = &acc;
    a.pure = &pure_;
    a.visitExpr(e);
    return acc;
  }

  Expr renamed(const Fold *f2, const Fold *f1) {
    Expr b = substitute(f2->body, f2->index, Var::make(f1->index, Type::i64()));
    return substitute(b, f2->state, ir::Tuple::make({}));
  }

  // The accesses of a stateless sweep, its private arrays (tapes of inner
  // loops it allocates itself) left out, when its iterations commute: it
  // only adds into arrays it does not read.
  std::optional<Access> commutingSweep(const Expr &body) {
    Access ba = access(body);
    auto local = localArrays(body);
    bool setOutside = false;
    for (auto &[arr, idx] : ba.stores)
      if (!local.count(arr) && !ba.accumulated.count(arr)) setOutside = true;
    for (auto &n : local) {
      ba.stores.erase(n);
      ba.reads.erase(n);
    }
    if ((ba.setStores && setOutside) || ba.unknownCalls) return std::nullopt;
    for (auto &[arr, idx] : ba.stores)
      if (!ba.accumulated.count(arr) || ba.reads.count(arr)) return std::nullopt;
    return ba;
  }
  bool commutative(const Expr &body) { return commutingSweep(body).has_value(); }

  static std::unordered_set<std::string> localArrays(const Expr &e) {
    struct L : Visitor {
      std::unordered_set<std::string> names;
      void visit(const Let *n) override {
        if (n->value->is<NewArray>()) names.insert(n->name);
        Visitor::visit(n);
      }
    } local;
    local.visitExpr(e);
    return local.names;
  }

  bool fusable(const Fold *f1, const Fold *f2, const std::unordered_set<std::string> &between) {
    if (!f2->init->type->isUnit() || print(f1->lo) != print(f2->lo) || print(f1->hi) != print(f2->hi)) return false;
    for (auto &v : freeVars(f2->body))
      if (between.count(v)) return false;
    Access fa = access(f1->body);
    auto sweep = commutingSweep(renamed(f2, f1));
    if (!sweep || fa.unknownCalls) return false;
    const Access &ba = *sweep;
    // The sweep adds into nothing the loop touches, ...
    for (auto &[arr, idx] : ba.stores)
      if (fa.reads.count(arr) || fa.stores.count(arr)) return false;
    // ... and what F writes and B reads: only this iteration's entries.
    for (auto &[arr, idx] : ba.reads) {
      auto st = fa.stores.find(arr);
      if (st == fa.stores.end()) continue;
      for (auto &i : idx)
        if (i == "*" || !st->second.count(i) || st->second.size() != 1) return false;
    }
    return true;
  }

  // The sweep may move before `passed` when none of them touches memory
  // the sweep writes, or writes memory the sweep reads.
  bool commutes(const Fold *f1, const Fold *f2, const std::vector<Expr> &passed) {
    Access ba = access(renamed(f2, f1));
    for (auto &e : passed) {
      Access pa = access(e);
      if (pa.unknownCalls) return false;
      for (auto &[arr, idx] : pa.stores)
        if (ba.stores.count(arr) || ba.reads.count(arr)) return false;
      for (auto &[arr, idx] : pa.reads)
        if (ba.stores.count(arr)) return false;
    }
    return true;
  }

  Expr fuse(const Fold *f1, const Fold *f2) {
    Expr sweep = renamed(f2, f1);
    std::function<Expr(const Expr &)> go = [&](const Expr &b) -> Expr {
      if (auto l = b->as<Let>()) return Let::make(l->name, l->value, go(l->body));
      return Let::make("_" + f1->index + "_sweep", sweep, b);
    };
    return Fold::make(f1->lo, f1->hi, f1->init, f1->index, f1->state, go(f1->body), f1->reversed);
  }
};

// Structural equality up to the names of bound variables (α-equivalence).
class AlphaEqual {
public:
  bool operator()(const Expr &a, const Expr &b) { return eq(a, b); }

private:
  std::unordered_map<std::string, std::string> bound_; // a's binder -> b's binder

  bool eqAll(const std::vector<Expr> &a, const std::vector<Expr> &b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
      if (!eq(a[i], b[i])) return false;
    return true;
  }
  bool eq(const Expr &a, const Expr &b) {
    if (a->kind != b->kind || !sameType(a->type, b->type)) return false;
    switch (a->kind) {
    case Kind::Var: {
      auto it = bound_.find(a->as<Var>()->name);
      return (it == bound_.end() ? a->as<Var>()->name : it->second) == b->as<Var>()->name;
    }
    case Kind::Const: return a->as<Const>()->fvalue == b->as<Const>()->fvalue;
    case Kind::Prim: return a->as<Prim>()->op == b->as<Prim>()->op && eqAll(a->as<Prim>()->args, b->as<Prim>()->args);
    case Kind::Let: {
      auto x = a->as<Let>(), y = b->as<Let>();
      if (!eq(x->value, y->value)) return false;
      bound_[x->name] = y->name;
      return eq(x->body, y->body);
    }
    case Kind::If: {
      auto x = a->as<If>(), y = b->as<If>();
      return eq(x->cond, y->cond) && eq(x->thenE, y->thenE) && eq(x->elseE, y->elseE);
    }
    case Kind::Tuple: return eqAll(a->as<ir::Tuple>()->elems, b->as<ir::Tuple>()->elems);
    case Kind::Proj: return a->as<Proj>()->index == b->as<Proj>()->index && eq(a->as<Proj>()->tuple, b->as<Proj>()->tuple);
    case Kind::Call: return a->as<Call>()->callee == b->as<Call>()->callee && eqAll(a->as<Call>()->args, b->as<Call>()->args);
    case Kind::Index:
      return eq(a->as<ir::Index>()->array, b->as<ir::Index>()->array) && eq(a->as<ir::Index>()->index, b->as<ir::Index>()->index);
    case Kind::Size: return eq(a->as<ir::Size>()->array, b->as<ir::Size>()->array);
    case Kind::Fold: {
      auto x = a->as<Fold>(), y = b->as<Fold>();
      if (x->reversed != y->reversed || !eq(x->lo, y->lo) || !eq(x->hi, y->hi) || !eq(x->init, y->init)) return false;
      bound_[x->index] = y->index;
      bound_[x->state] = y->state;
      return eq(x->body, y->body);
    }
    case Kind::While: {
      auto x = a->as<While>(), y = b->as<While>();
      if (!eq(x->init, y->init)) return false;
      bound_[x->state] = y->state;
      return eq(x->cond, y->cond) && eq(x->body, y->body);
    }
    default: return false; // effects and continuations are never shared
    }
  }
};

// CSE of whole loops and of calls to helpers that write nothing: a later
// let computing what an earlier one in the same block computed (up to
// bound names), with nothing in between writing what it reads, reuses it.
// After fusion, this is what removes the sweep's recomputation of inner
// loops the forward half already ran.
class LoopCSE : public BlockRewriter {
public:
  explicit LoopCSE(const std::unordered_set<std::string> &pure) : pure_(pure) {}

protected:
  void chain(Lets &lets, Expr &body) override {
    for (size_t m = 0; m < lets.size(); ++m) {
      const Expr &v = lets[m].second;
      if (!(v->is<Fold>() || v->is<While>() || v->is<Call>()) || !shareable(v)) continue;
      std::unordered_set<std::string> reads;
      arraysTouched(v, &reads, nullptr);
      for (size_t k = m; k-- > 0;) {
        const Expr &u = lets[k].second;
        if (u->kind == v->kind && AlphaEqual()(u, v)) {
          Expr same = Var::make(lets[k].first, u->type);
          for (size_t j = m + 1; j < lets.size(); ++j) lets[j].second = substitute(lets[j].second, lets[m].first, same);
          body = substitute(body, lets[m].first, same);
          lets[m].second = same;
          changed = true;
          break;
        }
        // Stop at a write to what v reads, or an unknown call.
        std::unordered_set<std::string> w;
        arraysTouched(u, nullptr, &w);
        bool blocked = false;
        for (auto &a : reads) blocked |= w.count(a) > 0;
        if (blocked || (mayWrite(u) && !shareable(u) && hasCall(u))) break;
      }
    }
  }

private:
  const std::unordered_set<std::string> &pure_;
  // Pure: no stores, and calls only to helpers that write nothing.
  bool shareable(const Expr &e) {
    struct P : Visitor {
      const std::unordered_set<std::string> *pure;
      bool ok = true;
      void visit(const Store *) override { ok = false; }
      void visit(const Pullback *) override { ok = false; }
      void visit(const NewArray *) override { ok = false; }
      void visit(const Call *n) override {
        bool arrays = false;
        for (auto &a : n->args) arrays |= a->type->isArray();
        if (arrays && !pure->count(n->callee)) ok = false;
        Visitor::visit(n);
      }
    } p;
    p.pure = &pure_;
    p.visitExpr(e);
    return p.ok;
  }
};

// Dead and idle stores within one block (a local array's element saved,
// overwritten by a recomputation and put back, with nothing reading it in
// between):
//   a[i] = x; ...; a[i] = y        ~>  ...; a[i] = y     (nothing between mentions a)
//   let v = a[i]; ...; a[i] = v    ~>  let v = a[i]; ...  (nothing between writes a)
class DeadStores : public BlockRewriter {
protected:
  void chain(Lets &lets, Expr &) override {
    for (size_t k = 0; k < lets.size();) {
      auto st = lets[k].second->as<Store>();
      auto a = st ? st->array->as<Var>() : nullptr;
      if (a && st->mode == Store::Mode::Set && (overwritten(lets, k, a->name) || idle(lets, k, a->name))) {
        lets.erase(lets.begin() + long(k));
        changed = true;
        k = 0; // a removed store may make an earlier one dead
        continue;
      }
      ++k;
    }
  }

private:
  static bool sameIndex(const Expr &x, const Expr &y) { return print(x) == print(y); }

  static bool overwritten(const Lets &lets, size_t k, const std::string &a) {
    auto st = lets[k].second->as<Store>();
    for (size_t m = k + 1; m < lets.size(); ++m) {
      const Expr &v = lets[m].second;
      if (countUses(v, a) == 0) continue;
      auto next = v->as<Store>();
      return next && next->mode == Store::Mode::Set && next->array->is<Var>() && countUses(next->index, a) == 0 &&
             countUses(next->value, a) == 0 && sameIndex(next->index, st->index) &&
             // a[i].p = x; a[i].q = y: q covers p when q is a prefix of p
             next->path.size() <= st->path.size() && std::equal(next->path.begin(), next->path.end(), st->path.begin());
    }
    return false; // what follows the block may read it
  }

  static bool idle(const Lets &lets, size_t k, const std::string &a) {
    auto st = lets[k].second->as<Store>();
    auto v = st->value->as<Var>();
    if (!v || !st->path.empty()) return false;
    for (size_t p = k; p-- > 0;) {
      if (lets[p].first == v->name) {
        auto read = lets[p].second->as<ir::Index>();
        return read && read->array->is<Var>() && read->array->as<Var>()->name == a && sameIndex(read->index, st->index);
      }
      std::unordered_set<std::string> written;
      arraysTouched(lets[p].second, nullptr, &written);
      if (written.count(a) || hasCall(lets[p].second)) return false;
    }
    return false;
  }
};

// Scalar promotion of accumulations at a loop-invariant index: in a loop
// whose only uses of a buffer d are `+=` stores (which commute), the ones at
// an index that does not change with the iteration add into a register
// carried by the loop, and that register goes into d once afterwards:
//   fold j -> (...; d[i] += e; d[j] += g; ...)
//     ~>  let r = fold j from (s, 0) -> (...; acc' = acc + e; d[j] += g; ...)
//         in if lo < hi then d[i] += r.1
// (the pairwise-energy gradient's d_p[i] updates: one read-modify-write per
// pair fewer; the guard keeps an empty loop from touching d[i]).
class PromoteAccumulators : public BlockRewriter {
public:
  explicit PromoteAccumulators(const Expr &root) { names_.reserveAll(root); }

protected:
  void chain(Lets &lets, Expr &) override {
    Lets out;
    for (auto &l : lets) {
      auto f = l.second->as<Fold>();
      if (!f || !promote(l.first, f, out)) out.push_back(l);
    }
    lets = std::move(out);
  }

private:
  NameSupply names_; // every name of the function, and the ones made here
  std::string fresh(const std::string &hint) { return names_.fresh(hint); }

  // Only `+=` stores (and sizes) use `a` in e.
  static bool onlyAccumulated(const Expr &e, const std::string &a) {
    struct C : Visitor {
      std::string a;
      int adds = 0, sizes = 0;
      void visit(const Store *n) override {
        if (auto v = n->array->as<Var>(); v && v->name == a && n->mode == Store::Mode::Add) ++adds;
        Visitor::visit(n);
      }
      void visit(const ir::Size *n) override {
        if (auto v = n->array->as<Var>(); v && v->name == a) ++sizes;
        Visitor::visit(n);
      }
    } c;
    c.a = a;
    c.visitExpr(e);
    return c.adds > 0 && countUses(e, a) == c.adds + c.sizes;
  }

  bool promote(const std::string &name, const Fold *f, Lets &out) {
    Lets body;
    Expr tail = f->body;
    while (auto l = tail->as<Let>()) {
      body.push_back({l->name, l->value});
      tail = l->body;
    }
    std::unordered_map<std::string, Expr> defs; // the body's lets
    for (auto &b : body) defs[b.first] = b.second;
    // The index as an expression of values from outside the loop (through
    // the body's lets of integer arithmetic), or null when it varies.
    std::function<Expr(const Expr &)> invariant = [&](const Expr &e) -> Expr {
      if (e->is<Const>()) return e;
      if (auto v = e->as<Var>()) {
        if (v->name == f->index || v->name == f->state) return nullptr;
        auto it = defs.find(v->name);
        return it == defs.end() ? e : invariant(it->second);
      }
      auto p = e->as<Prim>();
      if (!p || !p->type->isInt() || (p->op != Op::Add && p->op != Op::Sub && p->op != Op::Mul)) return nullptr;
      std::vector<Expr> as;
      for (auto &x : p->args) {
        as.push_back(invariant(x));
        if (!as.back()) return nullptr;
      }
      return Prim::make(p->op, as);
    };
    struct Acc {
      Expr array, index;
      std::vector<int> path;
      TypeP type;
    };
    std::vector<Acc> accs;
    std::vector<int> accOf(body.size(), -1);
    std::unordered_map<std::string, bool> ok; // array -> only accumulated in the body
    for (size_t k = 0; k < body.size(); ++k) {
      auto st = body[k].second->as<Store>();
      if (!st || st->mode != Store::Mode::Add || !st->value->type->isFloat()) continue;
      auto a = st->array->as<Var>();
      Expr index = a ? invariant(st->index) : nullptr;
      if (!index) continue;
      auto it = ok.find(a->name);
      if (it == ok.end()) it = ok.emplace(a->name, onlyAccumulated(f->body, a->name)).first;
      if (!it->second) continue;
      int found = -1;
      for (size_t m = 0; m < accs.size(); ++m)
        if (accs[m].array->as<Var>()->name == a->name && print(accs[m].index) == print(index) && accs[m].path == st->path)
          found = int(m);
      if (found < 0) {
        found = int(accs.size());
        accs.push_back({st->array, index, st->path, st->value->type});
      }
      accOf[k] = found;
    }
    if (accs.empty()) return false;
    changed = true;
    // the new state: (old state, accumulators...)
    std::vector<TypeP> ts{f->init->type};
    std::vector<Expr> init{f->init};
    for (auto &a : accs) {
      ts.push_back(a.type);
      init.push_back(Const::zero(a.type));
    }
    TypeP st2 = Type::tuple(ts);
    std::string s2 = fresh(f->state);
    Expr s2v = Var::make(s2, st2);
    std::vector<std::string> cur;
    Lets nb{{f->state, Proj::make(s2v, 0)}};
    for (size_t m = 0; m < accs.size(); ++m) {
      std::string base = accs[m].array->as<Var>()->name + "_acc";
      cur.push_back(fresh(base));
      nb.push_back({cur.back(), Proj::make(s2v, int(m) + 1)});
    }
    for (size_t k = 0; k < body.size(); ++k) {
      if (accOf[k] < 0) {
        nb.push_back(body[k]);
        continue;
      }
      size_t m = size_t(accOf[k]);
      auto st = body[k].second->as<Store>();
      std::string next = fresh(accs[m].array->as<Var>()->name + "_acc");
      nb.push_back({next, Prim::make(Op::Add, {Var::make(cur[m], accs[m].type), st->value})});
      cur[m] = next;
    }
    std::vector<Expr> res{tail};
    for (size_t m = 0; m < accs.size(); ++m) res.push_back(Var::make(cur[m], accs[m].type));
    Expr newBody = ir::Tuple::make(res);
    for (size_t k = nb.size(); k-- > 0;) newBody = Let::make(nb[k].first, nb[k].second, newBody);
    std::string r = fresh(name);
    Expr rv = Var::make(r, st2);
    out.push_back({r, Fold::make(f->lo, f->hi, ir::Tuple::make(init), f->index, s2, newBody, f->reversed)});
    auto lo = f->lo->as<Const>(), hi = f->hi->as<Const>();
    bool runs = lo && hi && lo->ivalue < hi->ivalue;
    Expr flush = ir::Tuple::make({});
    for (size_t m = accs.size(); m-- > 0;)
      flush = Let::make(fresh("_"), Store::make(accs[m].array, accs[m].index, Proj::make(rv, int(m) + 1), Store::Mode::Add, accs[m].path),
                        flush);
    if (!runs) flush = If::make(Prim::make(Op::Lt, {f->lo, f->hi}), flush, ir::Tuple::make({}));
    out.push_back({fresh("_"), flush});
    out.push_back({name, Proj::make(rv, 0)});
    return true;
  }
};

// Loop-invariant code motion, for what may run once before a loop even
// when the loop runs zero times: scratch buffers of an invariant size (a
// tape filled and read within one iteration is reused by the next, one
// allocation instead of one per iteration) and trap-free scalar arithmetic
// on invariant values (such as that size):
//   let r = fold i .. -> (let x = e in body)  ~>  let x = e in let r = fold i .. -> body
class HoistInvariants : public BlockRewriter {
protected:
  void chain(Lets &lets, Expr &) override {
    for (size_t k = 0; k < lets.size(); ++k) {
      auto f = lets[k].second->as<Fold>();
      if (!f) continue;
      std::unordered_set<std::string> inner{f->index, f->state};
      Lets hoisted, kept;
      Expr tail = f->body;
      while (auto l = tail->as<Let>()) {
        bool invariant = movable(l->value);
        for (auto &v : freeVars(l->value)) invariant &= !inner.count(v);
        if (invariant) {
          hoisted.push_back({l->name, l->value});
        } else {
          kept.push_back({l->name, l->value});
          inner.insert(l->name);
        }
        tail = l->body;
      }
      if (hoisted.empty()) continue;
      for (size_t m = kept.size(); m-- > 0;) tail = Let::make(kept[m].first, kept[m].second, tail);
      lets[k].second = Fold::make(f->lo, f->hi, f->init, f->index, f->state, tail, f->reversed);
      lets.insert(lets.begin() + long(k), hoisted.begin(), hoisted.end());
      k += hoisted.size();
      changed = true;
    }
  }

private:
  static bool movable(const Expr &v) {
    if (auto a = v->as<NewArray>()) return a->scratch;
    return v->type->isScalar() && trapFree(v);
  }
  static bool trapFree(const Expr &e) {
    switch (e->kind) {
    case Kind::Const: case Kind::Var: return true;
    case Kind::Prim: {
      auto p = e->as<Prim>();
      if ((p->op == Op::Div || p->op == Op::Mod) && !p->type->isFloat()) return false; // x / 0
      return std::all_of(p->args.begin(), p->args.end(), trapFree);
    }
    case Kind::If: {
      auto i = e->as<If>();
      return trapFree(i->cond) && trapFree(i->thenE) && trapFree(i->elseE);
    }
    default: return false;
    }
  }
};

// A struct cotangent added into an element of an adjoint array, one field
// at a time, the fields known to be 0 skipped:
//   a[i] += Vec3{0, y, 0}  ~>  a[i].y += y
// (then `+=` updates of the same field merge, like scalars')
class SplitStructAdds : public BlockRewriter {
protected:
  void chain(Lets &lets, Expr &) override {
    Lets out;
    for (auto &l : lets) {
      auto st = l.second->as<Store>();
      if (!st || st->mode != Store::Mode::Add || !st->value->is<ir::Tuple>() || !st->value->type->isStruct()) {
        out.push_back(l);
        continue;
      }
      changed = true;
      split(st, st->value, st->path, l.first, out);
    }
    lets = std::move(out);
  }

private:
  static void split(const Store *st, const Expr &v, std::vector<int> path, const std::string &name, Lets &out) {
    if (auto c = v->as<Const>(); c && c->isZero()) return;
    auto t = v->as<ir::Tuple>();
    if (!t || !v->type->isStruct()) {
      if (v->type->isFloat() || v->type->isStruct()) out.push_back({name, Store::make(st->array, st->index, v, Store::Mode::Add, path)});
      return; // passive fields carry no cotangent
    }
    for (int k = 0; k < int(t->elems.size()); ++k) {
      path.push_back(k);
      split(st, t->elems[size_t(k)], path, name, out);
      path.pop_back();
    }
  }
};

static Expr cleanUp(const Expr &e, const std::vector<std::string> &reserved,
                    const std::unordered_set<std::string> &pureCallees) {
  PartialEvaluator pe(e, reserved, pureCallees);
  Expr r = SplitStructAdds().go(pe.run(e));
  // Removing a dead read can leave a tape write-only, whose stores are
  // then dead too: iterate to a fixpoint.
  for (size_t before = 0, after = size(r); before != after;) {
    before = after;
    r = DeadStores().go(r);
    r = DeadCode().run(r);
    after = size(r);
  }
  return r;
}

static Expr optimizeWith(const Expr &e, const std::vector<std::string> &reserved,
                         const std::unordered_set<std::string> &pureCallees = {}) {
  Expr r = cleanUp(e, reserved, pureCallees);
  // Fusing outer loops makes their inner loops siblings: repeat.
  for (int round = 0; round < 4; ++round) {
    LoopFusion fusion(pureCallees);
    Expr fused = fusion.go(r);
    if (!fusion.changed) break;
    r = cleanUp(fused, reserved, pureCallees); // CSE across the fused halves
  }
  LoopCSE loops(pureCallees);
  Expr shared = loops.go(r);
  if (loops.changed) r = cleanUp(shared, reserved, pureCallees);
  r = SingleUse(reserved).run(r);
  PromoteAccumulators promote(r);
  r = promote.go(r);
  if (promote.changed) r = SingleUse(reserved).run(r);
  return HoistInvariants().go(r);
}

Expr optimize(const Expr &e) { return optimizeWith(lowerParallel(e), {}); }

static Function optimizeFunction(const Function &f, const std::unordered_set<std::string> &pureCallees) {
  std::vector<std::string> reserved;
  for (auto &p : f.params) {
    reserved.push_back(p.name);
    reserved.push_back("d_" + p.name);
  }
  Function g = f;
  // build/sum become the loops they stand for: the loop rewrites below
  // (fusion of sweeps, loop CSE, invariant state) then apply to them too.
  g.body = optimizeWith(lowerParallel(f.body), reserved, pureCallees);
  return g;
}

Function optimize(const Function &f) { return optimizeFunction(f, {}); }

Program optimize(const Program &p, const Program *primal) {
  // Helpers that write none of their parameters: calling them, or their
  // pullbacks (which only add into buffers), commutes with other += sweeps.
  std::unordered_set<std::string> pure;
  if (primal)
    for (auto &f : primal->functions)
      if (std::none_of(f.params.begin(), f.params.end(), [](auto &q) { return q.written; })) pure.insert(f.name);
  Program out = p;
  for (auto &f : out.functions) f = optimizeFunction(f, pure);
  return out;
}

} // namespace unfad::opt
