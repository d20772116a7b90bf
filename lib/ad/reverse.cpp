// Reverse mode: which functions get a gradient or a pullback, and each one
// set up around the traversal of its UNF term (rev/reverser.h): the
// parameters' slots, the initial continuation Y_0, the cotangent buffers
// of active arrays, and the seed.
#include "unfad/ad/reverse.h"
#include "rev/cotangents.h"
#include "rev/reverser.h"
#include "unfad/ir/effects.h"
#include "unfad/ir/mutator.h"
#include "unfad/ad/derivatives.h"
#include "unfad/ir/traverse.h"
#include "unfad/unf/unf.h"

#include <functional>
#include <set>

namespace unfad::ad {

using namespace unfad::ir;
using rev::cotangentType;

namespace {

// Functions reachable from the marked ones through calls, callees first.
std::vector<const Function *> reachable(const Program &p) {
  std::set<std::string> seen;
  std::vector<const Function *> order;
  std::function<void(const Function &)> visitFunction = [&](const Function &f) {
    if (!seen.insert(f.name).second) return;
    for (auto &n : callees(f.body))
      if (auto g = p.find(n)) visitFunction(*g);
    order.push_back(&f);
  };
  for (auto &f : p.functions)
    if (f.marked) visitFunction(f);
  return order;
}

// Y_0: the gradient is the cotangents of the active parameters (`rho`), a
// struct's leaving as a struct (its passive fields 0), the type of the
// adjoint parameter. Binds Y_0 in `lets` and returns it.
Expr initialContinuation(const Function &f, NameSupply &names, rev::Lets &lets, std::vector<Expr> &rho) {
  std::vector<Binder> y0;
  for (auto &p : f.params) {
    y0.push_back({names.fresh("d_" + p.name), cotangentType(p.type)});
    Expr y = Var::make(y0.back().name, y0.back().type);
    if (p.active) rho.push_back(p.type->isArray() ? y : rev::asElement(y, p.type));
  }
  std::string name = names.fresh("Y");
  lets.push_back({name, Lambda::make(y0, ir::Tuple::make(rho))});
  return Var::make(name, lets.back().second->type);
}

// Active arrays: their cotangent buffers d_x are parameters too (after the
// primal's, and after d_return for pullbacks), accumulated in place.
std::vector<Param> bufferParams(const Function &f, bool isPullback, rev::Reverser &reverser) {
  std::vector<Param> buffers;
  for (size_t k = 0; k < f.params.size(); ++k) {
    const Param &p = f.params[k];
    if (!p.type->isArray()) continue;
    if (!p.written) reverser.setReadOnlyParam(p.name);
    if (!p.inout) {
      reverser.setParamArray(p.name);
      continue;
    }
    bool knowsSize = k < f.cxx.params.size() && f.cxx.params[k].knowsSize();
    reverser.setInOutArray(p.name, knowsSize ? ir::Size::make(Var::make(p.name, p.type)) : nullptr);
  }
  if (isPullback) reverser.setPullback();
  for (auto &p : f.params)
    if (p.active && p.type->isArray()) {
      buffers.push_back({"d_" + p.name, p.type, false, true});
      reverser.setBuffer(p.name, Var::make("d_" + p.name, p.type));
    }
  return buffers;
}

// The reverse sweep leaves in/out arrays as f found them (it puts back what
// each store overwrote); f_grad must leave them as f does: f runs again,
// unless no J^T reads them (then they keep the forward sweep's final state:
// rev::keepForwardInOutState). (Otherwise their writes are in undo logs of
// their own where they were made; replaying those would save this second
// run, at the cost of keeping the new values.) A function that prints
// printed in the forward sweep: it runs again as a copy of its body
// without its Effects, not as a call.
void redoInOutWrites(const Function &f, NameSupply &names, rev::Lets &lets) {
  bool inout = false, arraysOnly = true;
  std::set<std::string> arrays;
  std::vector<Expr> args;
  for (auto &p : f.params) {
    inout |= p.inout;
    if (p.inout) {
      arraysOnly &= p.type->isArray();
      arrays.insert(p.name);
    }
    args.push_back(Var::make(p.name, p.type));
  }
  if (!inout || (arraysOnly && rev::keepForwardInOutState(lets, arrays))) return;
  if (!memoryEffects(f.body).prints) {
    lets.push_back({names.fresh("_"), Call::make(f.name, args, f.result)});
    return;
  }
  struct Quiet : Mutator {
    Expr visit(const Effect *, const Expr &) override { return ir::Tuple::make({}); }
  };
  for (auto &l : lets) names.reserveAll(l.second);
  lets.push_back({names.fresh("_"), Quiet().mutate(freshened(f.body, names))});
}

// What differentiate makes of a function: f$grad (the marked function's
// value and gradient), g$pullback (a helper's J^T for a given cotangent of
// its result), or g$value_and_pullback (both: the helper's value, which
// its pullback's forward sweep computes anyway, and its J^T; a call whose
// pullback follows it is then one run, opt/value_pullbacks.cpp).
enum class Made { Gradient, Pullback, ValueAndPullback };

// Whether g's pullback redoes work its value needs: a loop's forward sweep,
// or a primitive whose partials read its result (exp). (Not sq(a) = a*a:
// its pullback needs only a; one run would save nothing.)
bool pullbackRecomputesValue(const Function &g) {
  struct Walk : Visitor {
    bool found = false;
    void visit(const Fold *n) override { found = true; Visitor::visit(n); }
    void visit(const While *n) override { found = true; Visitor::visit(n); }
    void visit(const Build *n) override { found = true; Visitor::visit(n); }
    void visit(const Sum *n) override { found = true; Visitor::visit(n); }
    void visit(const Prim *n) override {
      found = found || (n->type->isFloat() && partialsReadResult(n->op));
      Visitor::visit(n);
    }
  } walk;
  walk.visitExpr(g.body);
  return walk.found;
}

// Helpers given a value_and_pullback: a float result, no array written
// (the call's writes are then not its pullback's to redo), a body of
// their own (not a registered derivative's stand-in), and work shared
// between value and pullback.
bool wantsValueAndPullback(const Function &f) {
  if (!f.result->isFloat() || f.cxx.standIn()) return false;
  for (auto &p : f.params)
    if (p.written) return false;
  return pullbackRecomputesValue(f);
}

// One generated function for f.
Function differentiate(const Program &prog, const Function &f, Made made) {
  const bool isPullback = made != Made::Gradient;
  // Forward values keep the source's names where they are free; binders
  // made here are unique (the optimiser relies on it). The adjoint
  // parameters of the printed function are d_<param>.
  NameSupply names;
  for (auto &p : f.params) names.reserve(p.name);
  for (auto &p : f.params) names.reserve("d_" + p.name);
  rev::Reverser reverser(prog, names);

  Function out;
  out.name = made == Made::Pullback           ? pullbackFunctionName(f.name)
             : made == Made::ValueAndPullback ? valueAndPullbackFunctionName(f.name)
                                              : gradFunctionName(f.name);
  out.params = f.params;
  out.cxx = f.cxx;

  rev::Stack stack;
  for (auto &p : f.params) stack.push_back({Var::make(p.name, p.type), p.name});
  rev::Lets lets;
  std::vector<Expr> rho;
  Expr Y = initialContinuation(f, names, lets, rho);
  std::vector<Param> buffers = bufferParams(f, isPullback, reverser);
  const unf::Term term = unf::reverse(unf::toUnf(f).body);
  if (made == Made::Pullback) // the body's value: its last instruction but drops
    for (auto in = term.instrs.rbegin(); in != term.instrs.rend(); ++in)
      if (in->kind != unf::Instr::Kind::Drop) {
        reverser.setUnusedResult(&*in);
        break;
      }
  reverser.build(term, stack, &Y, lets);
  Expr result = stack.back().value;

  // Seed: 0 for every slot, 1 (or d_return) for the result.
  Expr seed;
  if (isPullback) {
    std::string dr = names.fresh("d_return");
    // (a struct result's cotangent arrives as the struct)
    TypeP dt = f.result->isStruct() ? f.result : cotangentType(f.result);
    out.params.push_back({dr, dt, false});
    seed = rev::asCotangent(Var::make(dr, dt));
  } else {
    seed = f.result->isUnit() ? Const::zero(f.result) : Const::make(1.0, f.result);
  }
  out.params.insert(out.params.end(), buffers.begin(), buffers.end());
  std::vector<Expr> seeds;
  for (size_t i = 0; i + 1 < stack.size(); ++i) seeds.push_back(Const::zero(cotangentType(stack[i].value->type)));
  seeds.push_back(seed);
  Expr grads = App::make(Y, seeds);
  if (made == Made::Pullback) {
    out.result = grads->type;
    out.body = unf::wrapLets(lets, grads);
    return out;
  }
  // f$grad and g$value_and_pullback return (value, cotangents of the
  // active parameters...)
  std::string g = names.fresh("grad");
  std::vector<Expr> elems{result};
  for (size_t i = 0; i < rho.size(); ++i) elems.push_back(Proj::make(Var::make(g, grads->type), int(i)));
  lets.push_back({g, grads});
  if (made == Made::Gradient) redoInOutWrites(f, names, lets);
  out.body = unf::wrapLets(lets, ir::Tuple::make(elems));
  out.result = out.body->type;
  return out;
}

} // namespace

Program reverse(const Program &primal) {
  auto functions = reachable(primal);
  std::set<std::string> called;
  for (const Function *f : functions)
    for (auto &n : callees(f->body)) called.insert(n);
  Program out;
  // Pullbacks first: gradients call them.
  for (const Function *f : functions)
    if (called.count(f->name) && rev::needsPullback(*f)) {
      out.functions.push_back(differentiate(primal, *f, Made::Pullback));
      if (wantsValueAndPullback(*f)) out.functions.push_back(differentiate(primal, *f, Made::ValueAndPullback));
    }
  for (const Function *f : functions)
    if (f->marked) {
      if (!f->result->isFloat() && !(f->result->isUnit() && rev::needsPullback(*f)))
        throw IRError("reverse: marked function " + f->name + " neither returns a float nor writes an output");
      out.functions.push_back(differentiate(primal, *f, Made::Gradient));
    }
  return out;
}

} // namespace unfad::ad
