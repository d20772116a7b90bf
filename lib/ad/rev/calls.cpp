// J^T of a call to a helper g: g's pullback, generated once for g and
// called through an ir::Pullback node (compositional, never re-derived);
// and the writes to output parameters that recomputed code does not redo.
#include "cotangents.h"
#include "reverser.h"
#include "unfad/ir/mutator.h"

#include <algorithm>
#include <functional>

namespace unfad::ad::rev {

using namespace unfad::ir;
using unf::Instr;
using unf::Term;

bool needsPullback(const Function &g) {
  bool anyActive = false, writesActive = false;
  for (auto &p : g.params) {
    anyActive |= p.active;
    writesActive |= p.active && p.written;
  }
  return anyActive && (isActive(g.result) || writesActive);
}

// F(call g, J^T call g). A call that writes a local (or in/out) array: a
// copy is taken before, and put back by its J^T, so recomputations earlier
// in the sweep read what the array held. Where g writes the array after
// reading it (an in/out parameter of g), g's pullback recomputes the call
// from the memory it found and undoes its own writes: the copy goes back
// before the pullback. Otherwise the pullback does not redo g's writes (it
// reads what the call left), and the copy goes back after it.
void Reverser::call(const Instr &in, Stack &stack, Expr *Y, Lets &lets, const Expr &forced) {
  const Stack before = stack;
  ArrayCopies inoutCopies, outputCopies;
  if (skipsForward(in)) {
    stack.push_back({Const::zero(in.type), in.hint}); // (see setUnusedResult)
  } else {
    inoutCopies = snapshotArgs(in, stack, true, lets);
    outputCopies = snapshotArgs(in, stack, false, lets);
    // A recomputation reads a taped call's value from its tape, but a call
    // that writes floating-point arrays, or integer arrays as outputs, runs
    // again: the tape holds its value, not what it leaves in memory for the
    // rest of the body and for its pullback. An integer array it updates in
    // place need not: what the body reads of it after the call is taped too
    // (intReadsAfterUpdates), and the stores after the call restore what
    // they overwrote within the recomputation. So a recursion that unlinks
    // and relinks an index list (determinant by minors) does not redo each
    // child's whole subtree; one whose later reads are not all taped does.
    const Function *g = prog_.find(in.callee);
    const bool writesArrays = g && std::any_of(g->params.begin(), g->params.end(), [](const Param &p) {
                                return p.written && p.type->isArray() && (p.active || !p.inout);
                              });
    const bool staleReads = forced && g && updatesIntArrays(*g) && readsIntMemoryAfter(in);
    forwardPart(in, stack, lets, writesArrays || staleReads ? nullptr : forced);
  }
  Transpose t = openTranspose(stack);
  restore(inoutCopies, t.code);
  transposeCall(in, before, t);
  restore(outputCopies, t.code);
  precompose(Y, lets, t);
}

bool updatesIntArrays(const Function &g) {
  return std::any_of(g.params.begin(), g.params.end(), [](const Param &p) {
    return p.written && p.inout && p.type->isArray() && p.type->elem()->isInt();
  });
}

// Whether the rest of the term running `in` may read integer memory other
// than through its taped top-level reads: a read nested in a branch, loop,
// sum or call (conservatively, any call).
bool Reverser::readsIntMemoryAfter(const Instr &in) const {
  if (!term_) return true;
  std::function<bool(const Instr &)> reads = [&](const Instr &i) {
    if ((i.kind == Instr::Kind::Index && i.type->isInt()) || i.kind == Instr::Kind::Call || i.kind == Instr::Kind::Opaque)
      return true;
    for (auto &b : i.branches)
      if (std::any_of(b.instrs.begin(), b.instrs.end(), reads)) return true;
    return false;
  };
  auto &instrs = term_->instrs;
  auto at = std::find_if(instrs.begin(), instrs.end(), [&](const Instr &i) { return &i == &in; });
  if (at == instrs.end()) return true;
  // (a top-level read that is taped reads its tape)
  auto taped = [&](const Instr &i) { return i.kind == Instr::Kind::Index && taped_.count(&i); };
  return std::any_of(std::next(at), instrs.end(), [&](const Instr &i) { return !taped(i) && reads(i); });
}

// Copies of the local and in/out arrays (slots of `stack`) the call `in`
// writes, taken now: those given to g's in/out parameters, or the others.
ArrayCopies Reverser::snapshotArgs(const Instr &in, const Stack &stack, bool inout, Lets &lets) {
  const Function *g = prog_.find(in.callee);
  if (!g) return {};
  const size_t n = stack.size();
  std::set<std::string> written;
  for (int k = 0; k < in.arity; ++k) {
    const Param &p = g->params[size_t(k)];
    if (auto v = rootArray(stack[n - size_t(in.arity) + size_t(k)].value)->as<Var>();
        v && p.written && p.inout == inout && sizes_.count(v->name))
      written.insert(v->name);
  }
  return snapshot(written, stack, lets);
}

// y_{arg k} += (g's pullback at the arguments, for y_result)_k for the
// active parameters k of g; active array parameters accumulate into their
// cotangent buffers, passed to the pullback.
void Reverser::transposeCall(const Instr &in, const Stack &before, Transpose &t) {
  const int n = int(before.size());
  Expr z = t.cotangents.back();
  t.cotangents.pop_back();
  const Function *g = prog_.find(in.callee);
  if (!g) throw IRError("reverse: call to unknown function " + in.callee);
  if (!needsPullback(*g)) return;
  std::vector<Expr> args, buffers;
  for (int k = n - in.arity; k < n; ++k) args.push_back(before[size_t(k)].value);
  for (int k = 0; k < in.arity; ++k) {
    if (!g->params[size_t(k)].active || !g->params[size_t(k)].type->isArray()) continue;
    Expr buffer = bufferOf(args[size_t(k)]);
    // An array without a cotangent buffer (passive here) still needs
    // somewhere for the pullback to accumulate: a scratch buffer.
    buffers.push_back(buffer ? buffer
                             : bind(t.code, "scratch",
                                    NewArray::make(ir::Size::make(args[size_t(k)]), args[size_t(k)]->type->elem())));
  }
  std::string hint = in.hint.empty() || in.hint == "t" ? g->cxx.name : in.hint;
  Expr pullback = bind(t.code, "d_" + hint + "_args",
                       Pullback::make(g->name, args, g->result->isStruct() ? asElement(z, g->result) : z,
                                      pullbackResultType(*g), buffers));
  int a = 0;
  for (int k = 0; k < in.arity; ++k) {
    if (!g->params[size_t(k)].active) continue;
    Expr &ct = t.cotangents[size_t(n - in.arity + k)];
    ct = accumulate(ct, asCotangent(Proj::make(pullback, a++))); // (a struct arrives whole)
  }
}

// Whether calling `callee` on `args` writes one of the parameter arrays.
bool Reverser::writesOutput(const std::string &callee, const std::vector<Expr> &args) const {
  const Function *g = prog_.find(callee);
  for (size_t k = 0; k < args.size(); ++k)
    if (auto v = rootArray(args[k])->as<Var>(); v && params_.count(v->name) && (!g || g->params[k].written))
      return true;
  return false;
}

// Forward code `e` without its stores to parameter arrays and its calls
// that only write them (see skipReplayedWrite).
Expr Reverser::withoutOutputStores(const Expr &e) const {
  // (rows of parameter arrays bound in `e` are parameter memory too)
  struct Rows : Visitor {
    const Reverser *self;
    std::set<std::string> names;
    void visit(const Let *n) override {
      if (auto table = n->value->type->isArray() ? storageArray(n->value)->as<Var>() : nullptr;
          table && (self->params_.count(table->name) || names.count(table->name)))
        names.insert(n->name);
      Visitor::visit(n);
    }
  } rows;
  rows.self = this;
  rows.visitExpr(e);
  struct Strip : Mutator {
    const Reverser *self;
    const std::set<std::string> *rows;
    Expr visit(const Store *n, const Expr &me) override {
      auto a = n->array->as<Var>();
      return a && (self->params_.count(a->name) || rows->count(a->name)) ? ir::Tuple::make({}) : Mutator::visit(n, me);
    }
    Expr visit(const ir::Resize *n, const Expr &me) override { // (done by the first run)
      auto a = n->array->as<Var>();
      return a && self->params_.count(a->name) ? ir::Tuple::make({}) : me;
    }
    Expr visit(const Throw *n, const Expr &me) override { // (the first run threw, or this one will not)
      return n->type->isUnit() ? ir::Tuple::make({}) : me;
    }
    Expr visit(const Effect *, const Expr &) override { return ir::Tuple::make({}); } // (the first run printed)
    Expr visit(const Call *n, const Expr &me) override {
      return n->type->isUnit() && self->writesOutput(n->callee, n->args) ? ir::Tuple::make({}) : Mutator::visit(n, me);
    }
  } strip;
  strip.self = this;
  strip.rows = &rows.names;
  return strip.mutate(e);
}

} // namespace unfad::ad::rev
