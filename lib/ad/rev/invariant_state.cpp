// The state of a loop nested in a taped step loop (nested_tapes.cpp) whose
// whole sequence no enclosing iteration changes: taped once, before the
// outermost loop, instead of per (step, element).
//
// nested_tapes.cpp tapes a nested loop's float state at every (enclosing
// position, inner iteration), so that the backward sweep replays the inner
// loop's transpose without running it forward. When the state starts from
// a value computed before the outermost loop and each next state is
// computed from the state, the inner index and memory no iteration writes
// (a running sum of an input, `c += x[i]` in an ODE's right-hand side), its
// sequence is the same in every step: storing it again per step costs one
// store per element per step, and the backward loop one load, for nothing.
// Instead one loop before the outermost loop computes the sequence into a
// tape of the inner trip count, and the backward sweep reads it at the
// inner iteration alone. Loops computing the same sequence (alpha-equal:
// the four stages of an RK4 step each run the same right-hand side) share
// one tape. (GradBench's ode stored four such tapes of steps x n.)
#include "reverser.h"

#include "unfad/ir/equal.h"

#include <map>

namespace unfad::ad::rev {

using namespace unfad::ir;
using unf::Instr;

namespace {

// `e` (the inner body's value of the next state) as one expression of the
// inner loop's index and state (renamed to `index` and `state`) and values
// bound before the outermost loop, the body's lets expanded; null when it
// depends on anything else (the enclosing iterations' values, memory that
// may be written, anything but arithmetic and reads).
struct Expander {
  const std::map<std::string, Expr> &defs; // the inner body's lets
  const std::vector<const Lets *> &scopes; // the enclosing bodies' lets
  const std::set<std::string> &local;      // the enclosing loops' indices and states
  const std::unordered_set<std::string> &readOnly;
  std::string indexName, stateName;
  Expr index, state;
  int budget = 200; // (a slice this large is not a running sum: not worth a loop of its own)

  Expr operator()(const Expr &e) {
    if (--budget < 0) return nullptr;
    if (e->is<Const>()) return e;
    if (auto v = e->as<Var>()) {
      if (v->name == indexName) return index;
      if (v->name == stateName) return state;
      if (auto def = defs.find(v->name); def != defs.end()) return (*this)(def->second);
      return v->type->isScalar() ? hoisted(e, scopes, local) : nullptr;
    }
    if (auto p = e->as<Prim>()) {
      std::vector<Expr> args;
      for (auto &a : p->args) {
        Expr x = (*this)(a);
        if (!x) return nullptr;
        args.push_back(x);
      }
      return Prim::make(p->op, args);
    }
    if (auto ix = e->as<Index>()) {
      auto a = ix->array->as<Var>();
      if (!a || !readOnly.count(a->name) || defs.count(a->name) || !ix->type->isScalar()) return nullptr;
      Expr at = (*this)(ix->index);
      return at ? Index::make(ix->array, at) : nullptr;
    }
    return nullptr;
  }
};

} // namespace

// The tape of nested loop `in`'s state sequence, shared by every enclosing
// iteration (filled before the outermost loop), or null when an enclosing
// iteration may change it. `init` is the state before the loop, `next` the
// body's value (its lets `bodyLets`, over `index` and `state`), `scopes`
// the enclosing bodies' lets.
Expr Reverser::invariantStateTape(const Instr &in, const Expr &init, const LoopRecord &record, const Expr &index,
                                  const Expr &state, const Lets &bodyLets, const Expr &next,
                                  const std::vector<const Lets *> &scopes) {
  NestedTaping &nt = *nested_;
  if (!nt.invariant) return nullptr;
  const Expr initBefore = hoisted(init, scopes, nt.local);
  const Expr lo = hoisted(record.lo, scopes, nt.local), hi = hoisted(record.hi, scopes, nt.local);
  if (!initBefore || !lo || !hi) return nullptr;
  std::map<std::string, Expr> defs(bodyLets.begin(), bodyLets.end());
  const std::string i = fresh(in.indexName), s = fresh(in.state);
  Expander expand{defs, scopes, nt.local, readOnly_, index->as<Var>()->name, state->as<Var>()->name,
                  Var::make(i, Type::i64()), Var::make(s, in.type)};
  const Expr nextBefore = expand(next);
  if (!nextBefore) return nullptr;
  const Expr sequence = Fold::make(lo, hi, initBefore, i, s, nextBefore, in.reversedLoop);
  for (auto &[loop, tape] : *nt.invariant)
    if (alphaEqual(loop, sequence)) return tape;
  const Expr tape = bind(*nt.before, "tape_" + in.state, NewArray::make(record.n, in.type, true));
  Lets body;
  bind(body, "_", Store::make(tape, Prim::make(Op::Sub, {expand.index, lo}), expand.state, Store::Mode::Set));
  bind(*nt.before, in.hint,
       Fold::make(lo, hi, initBefore, i, s, unf::wrapLets(body, nextBefore), in.reversedLoop));
  nt.invariant->push_back({sequence, tape});
  return tape;
}

} // namespace unfad::ad::rev
