// Reverse mode: UNF^-1 of the Target UNF (Fig. 10), i.e. every primitive
// F(P, J^T P) run forward while the continuation Y is pre-composed with
// P's transpose Jacobian:
//
//   let x_{n+1} = P(x_1..x_n) in
//   let Y' = fun (y_1..y_{n+1}) -> Y(J^T P (y_1..y_{n+1})) in ...
//
// The gradient is Y_final(0, ..., 0, seed). The continuations are linear
// (each is applied once); the optimiser β-reduces them into SSA code.
#include "unfad/ad/reverse.h"
#include "unfad/ad/derivatives.h"
#include "unfad/unf/unf.h"
#include "unfad/ir/mutator.h"

#include <functional>
#include <set>

namespace unfad::ad {

using namespace unfad::ir;
using unf::Instr;
using unf::Term;

namespace {

using Lets = std::vector<std::pair<std::string, Expr>>;

Expr wrap(const Lets &lets, Expr body) {
  for (auto it = lets.rbegin(); it != lets.rend(); ++it) body = Let::make(it->first, it->second, body);
  return body;
}

// The cotangent type of a value type: floats are their own cotangents,
// structs of floats stay structs, passive values have the unit cotangent.
TypeP cotangentType(const TypeP &t) {
  if (t->isFloat()) return t;
  if (t->isTuple()) {
    std::vector<TypeP> es;
    bool allSame = true;
    for (auto &e : t->elems) {
      es.push_back(cotangentType(e));
      allSame &= sameType(es.back(), e);
    }
    if (t->isStruct() && allSame) return t;
    return Type::tuple(std::move(es));
  }
  return Type::tuple({});
}

Expr makeTuple(const TypeP &t, std::vector<Expr> es) {
  return t->isStruct() ? ir::Tuple::makeStruct(t, std::move(es)) : ir::Tuple::make(std::move(es));
}

// Cotangent addition (the monoid of Fig. 5's "+" lifted to tuples).
Expr addCt(const Expr &a, const Expr &b) {
  if (a->type->isScalar()) return Prim::make(Op::Add, {a, b});
  std::vector<Expr> es;
  for (int i = 0; i < int(a->type->elems.size()); ++i) es.push_back(addCt(Proj::make(a, i), Proj::make(b, i)));
  return makeTuple(a->type, std::move(es));
}

struct Slot {
  Expr value;       // forward value: a variable or a constant
  std::string hint; // readable name, for the slot's cotangent "d_<hint>"
};

class Reverser {
public:
  Reverser(const Program &p, NameSupply &names) : prog_(p), names_(names) {}

  // Runs term `t` from `stack`. With Y == nullptr only the forward values
  // are computed (Source UNF^-1); otherwise Y is pre-composed at each step.
  void build(const Term &t, std::vector<Slot> &stack, Expr *Y, Lets &lets) {
    for (auto &in : t.instrs) step(in, stack, Y, lets);
  }

  std::string fresh(const std::string &h) { return names_.fresh(h); }

private:
  const Program &prog_;
  NameSupply &names_;

  Expr bind(Lets &lets, const std::string &hint, Expr v) {
    std::string n = fresh(hint.empty() ? "t" : hint);
    lets.push_back({n, v});
    return Var::make(n, v->type);
  }

  static std::string ctHint(const Slot &s) {
    std::string h = s.hint;
    if (auto v = s.value->as<Var>()) h = v->name;
    if (h.empty() || h == "t") h = "t";
    return "d_" + h;
  }

  // Binders y_1..y_m for the cotangents of the slots of `stack`.
  std::vector<Binder> cotangentBinders(const std::vector<Slot> &stack) {
    std::vector<Binder> ys;
    for (auto &s : stack) ys.push_back({fresh(ctHint(s)), cotangentType(s.value->type)});
    return ys;
  }

  static std::vector<Expr> vars(const std::vector<Binder> &bs) {
    std::vector<Expr> vs;
    for (auto &b : bs) vs.push_back(Var::make(b.name, b.type));
    return vs;
  }

  // Y' = fun ys -> (inner lets) Y(args); returns the new continuation var.
  void precompose(Expr *Y, Lets &lets, const std::vector<Binder> &ys, const Lets &inner, std::vector<Expr> args) {
    Expr body = wrap(inner, App::make(*Y, std::move(args)));
    *Y = bind(lets, "Y", Lambda::make(ys, body));
  }

  void step(const Instr &in, std::vector<Slot> &stack, Expr *Y, Lets &lets) {
    const int N = int(stack.size());
    auto argSlots = [&](int n) { return std::vector<Slot>(stack.end() - n, stack.end()); };
    auto argValues = [&](int n) {
      std::vector<Expr> vs;
      for (auto &s : argSlots(n)) vs.push_back(s.value);
      return vs;
    };
    switch (in.kind) {
    case Instr::Kind::Const: {
      stack.push_back({in.constant, "c"});
      if (Y) { // J^T const: forget the cotangent
        auto ys = cotangentBinders(stack);
        auto vs = vars(ys);
        vs.pop_back();
        precompose(Y, lets, ys, {}, vs);
      }
      return;
    }
    case Instr::Kind::Var: {
      stack.push_back(stack.at(in.index));
      if (Y) { // J^T var_i: y_i += y_{n+1}
        auto ys = cotangentBinders(stack);
        auto vs = vars(ys);
        Expr top = vs.back();
        vs.pop_back();
        vs[in.index] = addCt(vs[in.index], top);
        precompose(Y, lets, ys, {}, vs);
      }
      return;
    }
    case Instr::Kind::Op: {
      auto args = argValues(in.arity);
      Expr v = in.op == Op::Cast ? Prim::makeCast(args[0], in.type) : Prim::make(in.op, args);
      Expr r = bind(lets, in.hint, v);
      stack.push_back({r, in.hint});
      if (!Y) return;
      // J^T op: y_{arg k} += ∂_k op * y_result
      auto ys = cotangentBinders(stack);
      auto vs = vars(ys);
      Expr z = vs.back();
      vs.pop_back();
      if (in.op == Op::Cast) {
        if (args[0]->type->isFloat() && in.type->isFloat())
          vs[N - 1] = addCt(vs[N - 1], Prim::makeCast(z, args[0]->type));
      } else {
        auto ds = partials(in.op, args, r);
        for (int k = 0; k < in.arity; ++k)
          if (ds[k]) vs[N - in.arity + k] = addCt(vs[N - in.arity + k], Prim::make(Op::Mul, {ds[k], z}));
      }
      precompose(Y, lets, ys, {}, vs);
      return;
    }
    case Instr::Kind::Elem: {
      Expr r = bind(lets, in.hint, Proj::make(stack.back().value, in.index));
      stack.push_back({r, in.hint});
      if (!Y) return;
      // J^T π_i: the tuple's cotangent gets y_result in component i
      auto ys = cotangentBinders(stack);
      auto vs = vars(ys);
      Expr z = vs.back();
      vs.pop_back();
      Expr yt = vs.back();
      if (isActive(in.type)) {
        std::vector<Expr> es;
        for (int j = 0; j < int(yt->type->elems.size()); ++j) {
          Expr c = Proj::make(yt, j);
          es.push_back(j == in.index ? addCt(c, z) : c);
        }
        vs.back() = makeTuple(yt->type, std::move(es));
      }
      precompose(Y, lets, ys, {}, vs);
      return;
    }
    case Instr::Kind::Tuple: {
      auto args = argValues(in.arity);
      Expr r = bind(lets, in.hint, makeTuple(in.type, args));
      stack.resize(N - in.arity);
      stack.push_back({r, in.hint});
      if (!Y) return;
      // J^T tuple: split the cotangent into its components
      auto ys = cotangentBinders(stack);
      auto vs = vars(ys);
      Expr z = vs.back();
      vs.pop_back();
      for (int k = 0; k < in.arity; ++k) vs.push_back(Proj::make(z, k));
      precompose(Y, lets, ys, {}, vs);
      return;
    }
    case Instr::Kind::Call: {
      auto args = argValues(in.arity);
      Expr r = bind(lets, in.hint, Call::make(in.callee, args, in.type));
      stack.push_back({r, in.hint});
      if (!Y) return;
      // J^T call g: the cotangents of g's active parameters come from g's
      // pullback, generated once for g (compositional).
      auto ys = cotangentBinders(stack);
      auto vs = vars(ys);
      Expr z = vs.back();
      vs.pop_back();
      const Function *g = prog_.find(in.callee);
      if (!g) throw IRError("reverse: call to unknown function " + in.callee);
      Lets inner;
      if (isActive(g->result) && std::any_of(g->params.begin(), g->params.end(), [](auto &p) { return p.active; })) {
        Expr pb = bind(inner, "d_" + (in.hint.empty() || in.hint == "t" ? g->cxx.name : in.hint) + "_args",
                       Pullback::make(g->name, args, z, pullbackResultType(*g)));
        int a = 0;
        for (int k = 0; k < in.arity; ++k) {
          if (!g->params[k].active) continue;
          int s = N - in.arity + k;
          vs[s] = addCt(vs[s], Proj::make(pb, a++));
        }
      }
      precompose(Y, lets, ys, inner, vs);
      return;
    }
    case Instr::Kind::Drop: {
      std::vector<Slot> dropped(stack.begin() + in.index, stack.begin() + in.index + in.arity);
      stack.erase(stack.begin() + in.index, stack.begin() + in.index + in.arity);
      if (!Y) return;
      // J^T proj: the forgotten slots get zero cotangents
      auto ys = cotangentBinders(stack);
      auto vs = vars(ys);
      std::vector<Expr> zs;
      for (auto &d : dropped) zs.push_back(Const::zero(cotangentType(d.value->type)));
      vs.insert(vs.begin() + in.index, zs.begin(), zs.end());
      precompose(Y, lets, ys, {}, vs);
      return;
    }
    case Instr::Kind::If: {
      // §7.2: record the branch taken; the continuation stays linear and
      // runs only the taken branch's local gradient:
      //   Y' = fun ys -> Y(if b then ∇branch1(ys) else ∇branch2(ys))
      Expr cond = stack.back().value;
      Expr fwd[2];
      for (int k = 0; k < 2; ++k) {
        std::vector<Slot> s = stack;
        Lets bl;
        build(in.branches[k], s, nullptr, bl);
        fwd[k] = wrap(bl, s.back().value);
      }
      Expr r = bind(lets, in.hint, If::make(cond, fwd[0], fwd[1]));
      std::vector<Slot> before = stack;
      stack.push_back({r, in.hint});
      if (!Y) return;
      auto ys = cotangentBinders(stack);
      Expr grads[2];
      for (int k = 0; k < 2; ++k) {
        // The branch's own reverse pass, from the identity continuation on
        // the context it started in; its forward values are recomputed.
        std::vector<Slot> s = before;
        Lets bl;
        auto zs = cotangentBinders(before);
        Expr Yb = bind(bl, "Y", Lambda::make(zs, ir::Tuple::make(vars(zs))));
        build(in.branches[k], s, &Yb, bl);
        grads[k] = wrap(bl, App::make(Yb, vars(ys)));
      }
      Lets inner;
      Expr g = bind(inner, "d_branch", If::make(cond, grads[0], grads[1]));
      std::vector<Expr> vs;
      for (int j = 0; j < N; ++j) vs.push_back(Proj::make(g, j));
      precompose(Y, lets, ys, inner, vs);
      return;
    }
    }
  }
};

// Functions reachable from the marked ones through calls.
std::vector<const Function *> reachable(const Program &p) {
  std::set<std::string> seen;
  std::vector<const Function *> order;
  std::function<void(const Function &)> visitFn = [&](const Function &f) {
    if (!seen.insert(f.name).second) return;
    struct Calls : Visitor {
      std::vector<std::string> names;
      void visit(const Call *c) override { names.push_back(c->callee); Visitor::visit(c); }
    } calls;
    calls.visitExpr(f.body);
    for (auto &n : calls.names)
      if (auto g = p.find(n)) visitFn(*g);
    order.push_back(&f);
  };
  for (auto &f : p.functions)
    if (f.marked) visitFn(f);
  return order;
}

// f$grad or g$pullback for one function.
Function differentiate(const Program &prog, const Function &f, bool isPullback) {
  // Forward values keep the source's names where they are free; binders
  // made here are unique (the optimiser relies on it).
  NameSupply names;
  for (auto &p : f.params) names.reserve(p.name);
  // The adjoint parameters of the printed function are d_<param>.
  for (auto &p : f.params) names.reserve("d_" + p.name);
  Reverser rev(prog, names);

  Function out;
  out.name = isPullback ? pullbackFunctionName(f.name) : gradFunctionName(f.name);
  out.params = f.params;
  out.cxx = f.cxx;

  std::vector<Slot> stack;
  for (auto &p : f.params) stack.push_back({Var::make(p.name, p.type), p.name});
  Lets lets;
  // Y_0: the gradient is the cotangents of the active parameters.
  std::vector<Binder> y0;
  std::vector<Expr> rho;
  for (auto &p : f.params) {
    y0.push_back({names.fresh("d_" + p.name), cotangentType(p.type)});
    if (p.active) rho.push_back(Var::make(y0.back().name, y0.back().type));
  }
  std::string y0name = names.fresh("Y");
  lets.push_back({y0name, Lambda::make(y0, ir::Tuple::make(rho))});
  Expr Y = Var::make(y0name, lets.back().second->type);

  unf::UnfFunction u = unf::toUnf(f);
  rev.build(unf::reverse(u.body), stack, &Y, lets);
  Expr result = stack.back().value;

  // Seed: 0 for every slot, 1 (or d_return) for the result.
  Expr seed;
  if (isPullback) {
    std::string dr = names.fresh("d_return");
    out.params.push_back({dr, cotangentType(f.result), false});
    seed = Var::make(dr, cotangentType(f.result));
  } else {
    seed = Const::make(1.0, f.result);
  }
  std::vector<Expr> seeds;
  for (size_t i = 0; i + 1 < stack.size(); ++i) seeds.push_back(Const::zero(cotangentType(stack[i].value->type)));
  seeds.push_back(seed);
  Expr grads = App::make(Y, seeds);
  if (isPullback) {
    out.result = grads->type;
    out.body = wrap(lets, grads);
  } else {
    std::string g = names.fresh("grad");
    std::vector<Expr> es{result};
    for (size_t i = 0; i < rho.size(); ++i) es.push_back(Proj::make(Var::make(g, grads->type), int(i)));
    lets.push_back({g, grads});
    Expr body = wrap(lets, ir::Tuple::make(es));
    out.result = body->type;
    out.body = body;
  }
  return out;
}

} // namespace

Program reverse(const Program &primal) {
  auto fns = reachable(primal);
  std::set<std::string> called;
  for (const Function *f : fns) {
    struct Calls : Visitor {
      std::set<std::string> *out;
      void visit(const Call *c) override { out->insert(c->callee); Visitor::visit(c); }
    } calls;
    calls.out = &called;
    calls.visitExpr(f->body);
  }
  Program out;
  // Pullbacks first: gradients call them.
  for (const Function *f : fns)
    if (called.count(f->name) && isActive(f->result) &&
        std::any_of(f->params.begin(), f->params.end(), [](auto &p) { return p.active; }))
      out.functions.push_back(differentiate(primal, *f, true));
  for (const Function *f : fns)
    if (f->marked) {
      if (!f->result->isFloat()) throw IRError("reverse: marked function " + f->name + " does not return a float");
      out.functions.push_back(differentiate(primal, *f, false));
    }
  return out;
}

} // namespace unfad::ad
