// Forward mode (ad/forward.h): the UNF term of a function run once, each
// instruction giving its primal value and its tangent. Tangents are kept
// symbolically zero (nullptr) until something makes them nonzero, so
// passive values (integers, constants, no_grad, indices) cost nothing.
#include "unfad/ad/forward.h"
#include "unfad/ad/derivatives.h"
#include "unfad/unf/unf.h"

#include <functional>

namespace unfad::ad {

using namespace unfad::ir;

namespace {

// A slot of the UNF context: the primal value and its tangent (nullptr:
// zero, or no tangent at all for passive types and passive arrays).
struct Dual {
  Expr value, tangent;
};
using Stack = std::vector<Dual>;

// A zero tangent spelled out, for the places that need a value (a loop's
// initial state, one branch of an if, a stored element).
Expr zeroTangent(const TypeP &t) {
  if (t->isArray()) throw IRError("forward: an array without a tangent buffer where one is needed");
  return Const::zero(t);
}
Expr orZero(const Expr &d, const TypeP &t) { return d ? d : zeroTangent(t); }

bool hasArray(const TypeP &t) {
  if (t->isArray()) return true;
  for (auto &e : t->isTuple() ? t->elems : std::vector<TypeP>{})
    if (hasArray(e)) return true;
  return false;
}

// Whether values of type `t` carry a tangent through a loop or a branch:
// floats and tuples holding one (arrays are buffers, updated in place).
bool carriesTangent(const TypeP &t) { return !hasArray(t) && isActive(t); }

// An array (a pointer) chosen by a condition or carried by a loop cannot
// bring its tangent buffer along yet: refused rather than losing it.
[[noreturn]] void arrayStateUnsupported() {
  throw IRError("forward mode: a pointer chosen by a condition or moved by a loop, with a tangent, is not supported yet");
}

// A value and its tangent as one flat tuple, for a loop's state and an
// if's result: the value's components (a plain tuple's elements, or the
// value), then the tangents of those that carry one. (Flat, because the
// printer keeps one variable per component of a tuple, one level deep.)
struct Flat {
  TypeP type;                // of the value
  bool plain;                // a plain tuple: its elements are the components
  std::vector<TypeP> comps;
  std::vector<size_t> active; // the components with a tangent
  explicit Flat(TypeP t) : type(std::move(t)), plain(type->isTuple() && !type->isStruct()) {
    comps = plain ? type->elems : std::vector<TypeP>{type};
    for (size_t k = 0; k < comps.size(); ++k)
      if (isActive(comps[k])) active.push_back(k);
  }
  TypeP dualType() const {
    std::vector<TypeP> ts = comps;
    for (size_t k : active) ts.push_back(comps[k]);
    return Type::tuple(ts);
  }
  Expr comp(const Expr &v, size_t k) const { return plain ? Proj::make(v, int(k)) : v; }
  Expr pack(const Dual &d) const {
    std::vector<Expr> es;
    for (size_t k = 0; k < comps.size(); ++k) es.push_back(comp(d.value, k));
    for (size_t k : active) es.push_back(d.tangent ? comp(d.tangent, k) : zeroTangent(comps[k]));
    return ir::Tuple::make(es);
  }
  // the value and tangent of a packed `v`; `bind` names each component
  Dual unpack(const Expr &v, const std::function<Expr(const std::string &, Expr)> &bind, const std::string &hint) const {
    std::vector<Expr> vs, ds(comps.size());
    for (size_t k = 0; k < comps.size(); ++k) vs.push_back(bind(hint, Proj::make(v, int(k))));
    for (size_t j = 0; j < active.size(); ++j)
      ds[active[j]] = bind("d_" + hint, Proj::make(v, int(comps.size() + j)));
    for (size_t k = 0; k < comps.size(); ++k)
      if (!ds[k]) ds[k] = zeroTangent(comps[k]);
    if (!plain) return {vs[0], ds[0]};
    return {ir::Tuple::make(vs), ir::Tuple::make(ds)};
  }
};

class Tangents {
public:
  explicit Tangents(NameSupply &names) : names_(names) {}

  // Runs `t` on `stack`, appending the code to `lets`.
  void run(const unf::Term &t, Stack &stack, unf::Lets &lets) {
    for (auto &in : t.instrs) step(in, stack, lets);
  }

private:
  NameSupply &names_;

  Expr bind(unf::Lets &lets, const std::string &hint, Expr v) {
    if (v->is<Var>() || v->is<Const>()) return v;
    std::string n = names_.fresh(hint.empty() ? "t" : hint);
    lets.push_back({n, v});
    return Var::make(n, v->type);
  }
  std::function<Expr(const std::string &, Expr)> binder(unf::Lets &lets) {
    return [this, &lets](const std::string &hint, Expr v) { return bind(lets, hint, std::move(v)); };
  }
  static std::string tangentHint(const unf::Instr &in) { return "d_" + (in.hint.empty() ? std::string("t") : in.hint); }

  // A nested term (a branch, a loop body) on the context plus `extra`:
  // its code as one expression whose value is `finish` of its result.
  Expr nested(const unf::Term &t, const Stack &stack, Stack extra, unf::Lets pre,
              const std::function<Expr(const Dual &)> &finish) {
    Stack s = stack;
    s.insert(s.end(), extra.begin(), extra.end());
    unf::Lets lets = std::move(pre);
    run(t, s, lets);
    return unf::wrapLets(lets, finish(s.back()));
  }

  // d(op(args)) = Σ_k ∂_k op · d arg_k, the partials from the shared table.
  Expr opTangent(const unf::Instr &in, const std::vector<Dual> &args, const Expr &y) {
    if (!in.type->isFloat()) return nullptr;
    if (in.op == Op::Cast) // d cast<T>(a) = cast<T>(da)
      return args[0].tangent && args[0].value->type->isFloat() ? Prim::makeCast(args[0].tangent, in.type) : nullptr;
    std::vector<Expr> xs;
    bool any = false;
    for (auto &a : args) {
      xs.push_back(a.value);
      any |= a.tangent != nullptr;
    }
    if (!any) return nullptr;
    std::vector<Expr> ps = partials(in.op, xs, y);
    Expr sum;
    for (size_t k = 0; k < args.size(); ++k) {
      if (!ps[k] || !args[k].tangent) continue;
      const Const *c = ps[k]->as<Const>();
      Expr term = c && c->isOne() ? args[k].tangent : Prim::make(Op::Mul, {ps[k], args[k].tangent});
      if (!sum) {
        sum = c && c->fvalue == -1.0 ? Prim::make(Op::Neg, {args[k].tangent}) : term;
        continue;
      }
      sum = c && c->fvalue == -1.0 ? Prim::make(Op::Sub, {sum, args[k].tangent}) : Prim::make(Op::Add, {sum, term});
    }
    return sum;
  }

  void step(const unf::Instr &in, Stack &stack, unf::Lets &lets) {
    auto top = [&](int n) { return std::vector<Dual>(stack.end() - n, stack.end()); };
    auto values = [](const std::vector<Dual> &ds) {
      std::vector<Expr> v;
      for (auto &d : ds) v.push_back(d.value);
      return v;
    };
    const std::string &hint = in.hint;
    switch (in.kind) {
    case unf::Instr::Kind::Const: stack.push_back({in.constant, nullptr}); return;
    case unf::Instr::Kind::Var: stack.push_back(stack.at(in.index)); return;
    case unf::Instr::Kind::Op: {
      auto as = top(in.arity);
      Expr y = bind(lets, hint, in.op == Op::Cast ? Prim::makeCast(as[0].value, in.type) : Prim::make(in.op, values(as)));
      Expr dy = opTangent(in, as, y);
      stack.push_back({y, dy ? bind(lets, tangentHint(in), dy) : nullptr});
      return;
    }
    case unf::Instr::Kind::Elem: {
      const Dual &t = stack.back();
      Expr v = bind(lets, hint, Proj::make(t.value, in.index));
      Expr d = t.tangent && isActive(v->type) ? bind(lets, tangentHint(in), Proj::make(t.tangent, in.index)) : nullptr;
      stack.push_back({v, d});
      return;
    }
    case unf::Instr::Kind::Tuple: {
      auto as = top(in.arity);
      stack.resize(stack.size() - in.arity);
      auto make = [&](std::vector<Expr> es) {
        return in.type->isStruct() ? ir::Tuple::makeStruct(in.type, std::move(es)) : ir::Tuple::make(std::move(es));
      };
      Expr v = bind(lets, hint, make(values(as)));
      bool any = false;
      for (auto &a : as) any |= a.tangent != nullptr;
      Expr d;
      if (any) {
        std::vector<Expr> ds;
        for (auto &a : as) ds.push_back(orZero(a.tangent, a.value->type));
        d = bind(lets, tangentHint(in), make(ds));
      }
      stack.push_back({v, d});
      return;
    }
    case unf::Instr::Kind::Call:
      throw IRError("forward: a call of '" + in.callee + "' was not inlined");
    case unf::Instr::Kind::Opaque: // passive arguments: a constant of the differentiation
      stack.push_back({bind(lets, hint, Opaque::make(in.callee, values(top(in.arity)), in.type, in.read)), nullptr});
      return;
    case unf::Instr::Kind::Resize: { // the tangent buffer of an output is resized with it
      auto as = top(2);
      Expr v = bind(lets, names_.fresh("_"), ir::Resize::make(as[0].value, as[1].value));
      if (as[0].tangent) lets.push_back({names_.fresh("_"), ir::Resize::make(as[0].tangent, as[1].value)});
      stack.push_back({v, nullptr});
      return;
    }
    case unf::Instr::Kind::Throw: // the path ends here: no tangent
      stack.push_back({bind(lets, hint, Throw::make(in.callee, in.type, values(top(in.arity)))), nullptr});
      return;
    case unf::Instr::Kind::Effect: // (it prints the primal values, once: no tangent)
      stack.push_back({bind(lets, names_.fresh("_"), Effect::make(in.callee, values(top(in.arity)))), nullptr});
      return;
    case unf::Instr::Kind::Drop: stack.erase(stack.begin() + in.index, stack.begin() + in.index + in.arity); return;
    case unf::Instr::Kind::If: {
      Expr cond = stack.back().value;
      if (!carriesTangent(in.type)) {
        auto plain = [](const Dual &r) {
          if (r.tangent) arrayStateUnsupported();
          return r.value;
        };
        Expr t = nested(in.branches[0], stack, {}, {}, plain), f = nested(in.branches[1], stack, {}, {}, plain);
        stack.push_back({bind(lets, hint, If::make(cond, t, f)), nullptr});
        return;
      }
      // each branch gives its value and tangent, packed
      const Flat flat(in.type);
      auto dual = [&](const Dual &r) { return flat.pack(r); };
      Expr t = nested(in.branches[0], stack, {}, {}, dual), f = nested(in.branches[1], stack, {}, {}, dual);
      Expr both = bind(lets, hint, If::make(cond, t, f));
      stack.push_back(flat.unpack(both, binder(lets), hint.empty() ? "t" : hint));
      return;
    }
    case unf::Instr::Kind::Index: {
      auto as = top(2);
      Expr v = bind(lets, hint, ir::Index::make(as[0].value, as[1].value));
      Expr d = as[0].tangent && isActive(v->type) ? bind(lets, tangentHint(in), ir::Index::make(as[0].tangent, as[1].value))
                                                  : nullptr;
      stack.push_back({v, d});
      return;
    }
    case unf::Instr::Kind::Size: stack.push_back({bind(lets, hint, ir::Size::make(stack.back().value)), nullptr}); return;
    case unf::Instr::Kind::View: {
      auto as = top(2);
      stack.push_back({ir::View::make(as[0].value, as[1].value),
                       as[0].tangent ? ir::View::make(as[0].tangent, as[1].value) : nullptr});
      return;
    }
    case unf::Instr::Kind::New: {
      Expr n = stack.back().value;
      Expr v = bind(lets, hint, ir::NewArray::make(n, in.type->elem()));
      // a local array of floats gets its tangent buffer (zero, as the array)
      Expr d = isActive(in.type) ? bind(lets, "d_" + (hint.empty() ? std::string("a") : hint), ir::NewArray::make(n, in.type->elem()))
                                 : nullptr;
      stack.push_back({v, d});
      return;
    }
    case unf::Instr::Kind::Store: {
      auto as = top(3);
      auto mode = in.addStore ? ir::Store::Mode::Add : ir::Store::Mode::Set;
      Expr v = bind(lets, names_.fresh("_"), ir::Store::make(as[0].value, as[1].value, as[2].value, mode, in.path));
      // the tangent buffer gets the tangent of the stored value, the same way
      if (as[0].tangent && isActive(as[2].value->type) && (as[2].tangent || mode == ir::Store::Mode::Set))
        lets.push_back({names_.fresh("_"), ir::Store::make(as[0].tangent, as[1].value, orZero(as[2].tangent, as[2].value->type),
                                                           mode, in.path)});
      else if (!as[0].tangent && as[2].tangent)
        throw IRError("forward: a value with a tangent stored into an array without a tangent buffer");
      stack.push_back({v, nullptr});
      return;
    }
    case unf::Instr::Kind::Fold: {
      auto as = top(3);
      const TypeP &st = in.type;
      std::string i = names_.fresh(in.indexName);
      Dual index{Var::make(i, Type::i64()), nullptr};
      if (!carriesTangent(st)) {
        if (as[2].tangent) arrayStateUnsupported();
        std::string s = names_.fresh(in.state);
        Expr body = nested(in.branches[0], stack, {index, {Var::make(s, st), nullptr}}, {},
                           [](const Dual &r) {
                             if (r.tangent) arrayStateUnsupported();
                             return r.value;
                           });
        stack.push_back({bind(lets, hint, ir::Fold::make(as[0].value, as[1].value, as[2].value, i, s, body, in.reversedLoop)),
                         nullptr});
        return;
      }
      // the state is the state and its tangent, packed
      const Flat flat(st);
      std::string s = names_.fresh(in.state);
      Expr sv = Var::make(s, flat.dualType());
      unf::Lets pre;
      Dual state = flat.unpack(sv, binder(pre), in.state);
      Expr body = nested(in.branches[0], stack, {index, state}, std::move(pre), [&](const Dual &r) { return flat.pack(r); });
      Expr both = bind(lets, hint, ir::Fold::make(as[0].value, as[1].value, flat.pack(as[2]), i, s, body, in.reversedLoop));
      stack.push_back(flat.unpack(both, binder(lets), in.state));
      return;
    }
    case unf::Instr::Kind::While: {
      const Dual init = stack.back();
      const TypeP &st = in.type;
      Dual iteration{Const::makeInt(0), nullptr};
      if (!carriesTangent(st)) {
        if (init.tangent) arrayStateUnsupported();
        std::string s = names_.fresh(in.state);
        Stack extra{iteration, {Var::make(s, st), nullptr}};
        auto plain = [](const Dual &r) {
          if (r.tangent) arrayStateUnsupported();
          return r.value;
        };
        Expr cond = nested(in.branches[0], stack, extra, {}, plain), body = nested(in.branches[1], stack, extra, {}, plain);
        stack.push_back({bind(lets, hint, ir::While::make(init.value, s, cond, body)), nullptr});
        return;
      }
      const Flat flat(st);
      std::string s = names_.fresh(in.state);
      Expr sv = Var::make(s, flat.dualType());
      unf::Lets preCond, preBody;
      Stack condExtra{iteration, flat.unpack(sv, binder(preCond), in.state)};
      Stack bodyExtra{iteration, flat.unpack(sv, binder(preBody), in.state)};
      Expr cond = nested(in.branches[0], stack, condExtra, std::move(preCond), [](const Dual &r) { return r.value; });
      Expr body = nested(in.branches[1], stack, bodyExtra, std::move(preBody), [&](const Dual &r) { return flat.pack(r); });
      Expr both = bind(lets, hint, ir::While::make(flat.pack(init), s, cond, body));
      stack.push_back(flat.unpack(both, binder(lets), in.state));
      return;
    }
    case unf::Instr::Kind::Build: case unf::Instr::Kind::Sum:
      // (the forward pipeline does not recognise parallel shapes: loops stay folds)
      throw IRError("forward: build/sum are not differentiated in forward mode");
    }
  }
};

Function jvp(const Function &f) {
  NameSupply names;
  for (auto &p : f.params) names.reserve(p.name);
  for (auto &p : f.params) names.reserve("d_" + p.name);
  Function out;
  out.name = jvpFunctionName(f.name);
  out.params = f.params;
  out.cxx = f.cxx;
  Stack stack;
  for (auto &p : f.params) {
    Expr d;
    if (p.active) {
      out.params.push_back({"d_" + p.name, p.type, false, p.written, p.inout});
      d = Var::make("d_" + p.name, p.type);
    }
    stack.push_back({Var::make(p.name, p.type), d});
  }
  const unf::UnfFunction u = unf::toUnf(f);
  unf::Lets lets;
  Tangents(names).run(u.body, stack, lets);
  const Dual &r = stack.back();
  Expr result = f.result->isUnit() ? r.value : ir::Tuple::make({r.value, orZero(r.tangent, f.result)});
  out.body = unf::wrapLets(lets, result);
  out.result = out.body->type;
  return out;
}

} // namespace

Program forward(const Program &primal) {
  Program out;
  for (auto &f : primal.functions)
    if (f.marked && f.tangent) out.functions.push_back(jvp(f));
  return out;
}

} // namespace unfad::ad
