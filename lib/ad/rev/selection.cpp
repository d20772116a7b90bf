// F(fold, J^T fold) of a selection: a loop whose state is a scalar that
// every iteration keeps or replaces by a value e_i computed without it:
//
//   s = fmin(s, e_i)   s = std::max(s, e_i)   if (e_i < s) s = e_i
//
// The final state is the initial one or a single e_w, so its cotangent ȳ
// goes to one place: to e_w, the last value chosen, or else to the
// initial state. The forward loop records w (the "winner", lo - 1 when none);
// J^T is one recomputation of iteration w's e and its local reverse pass,
// O(one body) instead of O(trip count): a k-means point's gradient reaches
// its nearest centroid only, and no tape of the distances is kept.
//
// The chosen value may be a slot of the body or the result of the branch
// that chooses it (`if (x[i] > s) s = x[i]` reads x[i] again there).
//
// Which argument wins follows the partials' table (minMaxChoosesSecond for
// fmin/fmax, the branch taken for an if), so ties and NaNs go where the
// per-iteration rule of loops.cpp would send them.
#include "reverser.h"
#include "cotangents.h"
#include "unfad/ad/derivatives.h"

#include <cctype>

namespace unfad::ad::rev {

using namespace unfad::ir;
using unf::Instr;
using unf::Term;

namespace {

// What a slot of the body holds, relative to the loop's state s.
enum class Dep {
  Clean,    // does not depend on s
  State,    // s itself (a copy)
  Passive,  // a comparison or an integer derived from s: no cotangent
  Tainted,  // a float derived from s otherwise
  Selected, // the select of s and a clean value
};

bool dirty(Dep d) { return d != Dep::Clean; }

// Whether a nested term stores, allocates or calls a helper that writes an
// array: a selection body must be pure for one iteration to be recomputed
// alone.
bool writesMemory(const Term &t, const Program &prog) {
  for (auto &in : t.instrs) {
    if (in.kind == Instr::Kind::Store || in.kind == Instr::Kind::New || in.kind == Instr::Kind::Resize) return true;
    if (in.kind == Instr::Kind::Call)
      if (const Function *g = prog.find(in.callee))
        for (auto &p : g->params)
          if (p.written) return true;
    for (auto &b : in.branches)
      if (writesMemory(b, prog)) return true;
  }
  return false;
}

// Whether a nested term copies a slot below `depth` whose dependency is dirty.
bool readsDirty(const Term &t, const std::vector<Dep> &deps, size_t depth) {
  for (auto &in : t.instrs) {
    if (in.kind == Instr::Kind::Var && size_t(in.index) < depth && dirty(deps[size_t(in.index)])) return true;
    for (auto &b : in.branches)
      if (readsDirty(b, deps, depth)) return true;
  }
  return false;
}

// A branch made of copies and drops only: the slot its result copies (an
// index into the enclosing body's slots), or -1.
int copiedSlot(const Term &branch, size_t depth) {
  std::vector<int> origin(depth);
  for (size_t k = 0; k < depth; ++k) origin[k] = int(k);
  for (auto &in : branch.instrs) {
    if (in.kind == Instr::Kind::Var) origin.push_back(origin[size_t(in.index)]);
    else if (in.kind == Instr::Kind::Drop) origin.erase(origin.begin() + in.index, origin.begin() + in.index + in.arity);
    else return -1;
  }
  return origin.size() == depth + 1 ? origin.back() : -1;
}

// What `in` pushes when it depends on the state: a float carries its
// derivative, anything else (a comparison, an index) none.
Dep derived(const Instr &in) { return in.type && in.type->isFloat() ? Dep::Tainted : Dep::Passive; }

// The dependency of what `in` pushes, from its arguments' (top `arity` slots).
Dep combine(const Instr &in, const std::vector<Dep> &deps, int arity) {
  bool anyDirty = false;
  for (size_t k = deps.size() - size_t(arity); k < deps.size(); ++k) anyDirty |= dirty(deps[k]);
  return anyDirty ? derived(in) : Dep::Clean;
}

// The winner when no value was chosen.
Expr noWinner(const Expr &lo) { return Prim::make(Op::Sub, {lo, Const::makeInt(1)}); }

// "closest" for the hint "closest_4": names of the winner's cell and value.
std::string baseName(const std::string &hint) {
  size_t end = hint.size();
  while (end > 0 && std::isdigit(static_cast<unsigned char>(hint[end - 1]))) --end;
  if (end > 0 && end < hint.size() && hint[end - 1] == '_') return hint.substr(0, end - 1);
  return hint.empty() ? std::string("state") : hint;
}

} // namespace

// Recognises a selection loop: a fold of a float scalar whose pure body ends
// with the one select of its state and a clean value (then only copies and
// drops). `n` is the size of the context with the loop's arguments.
std::optional<Selection> Reverser::selectionOf(const Instr &loop, int n) const {
  if (loop.kind != Instr::Kind::Fold || !loop.type->isFloat()) return std::nullopt;
  const Term &body = loop.branches[0];
  if (writesMemory(body, prog_)) return std::nullopt;
  std::vector<Dep> deps(size_t(n), Dep::Clean);
  deps.push_back(Dep::Clean); // the index
  deps.push_back(Dep::State);
  std::optional<Selection> sel;
  for (size_t at = 0; at < body.instrs.size(); ++at) {
    const Instr &in = body.instrs[at];
    if (sel && in.kind != Instr::Kind::Var && in.kind != Instr::Kind::Drop) return std::nullopt;
    switch (in.kind) {
    case Instr::Kind::Const: case Instr::Kind::Throw: deps.push_back(Dep::Clean); break;
    case Instr::Kind::Effect: return std::nullopt; // (a loop that prints runs as written)
    case Instr::Kind::Var: deps.push_back(deps[size_t(in.index)]); break;
    case Instr::Kind::Drop: deps.erase(deps.begin() + in.index, deps.begin() + in.index + in.arity); break;
    case Instr::Kind::Op: {
      const size_t top = deps.size();
      if ((in.op == Op::Fmin || in.op == Op::Fmax) && in.arity == 2) {
        Dep a = deps[top - 2], b = deps[top - 1];
        if ((a == Dep::State && b == Dep::Clean) || (a == Dep::Clean && b == Dep::State)) {
          sel = Selection{at, a == Dep::State ? 0 : 1, false, int(a == Dep::State ? top - 1 : top - 2)};
          deps.push_back(Dep::Selected);
          break;
        }
      }
      deps.push_back(combine(in, deps, in.arity));
      break;
    }
    case Instr::Kind::Elem: deps.push_back(combine(in, deps, 1)); break;
    case Instr::Kind::Index: case Instr::Kind::View: deps.push_back(combine(in, deps, 2)); break;
    case Instr::Kind::Size: deps.push_back(combine(in, deps, 1)); break;
    case Instr::Kind::Call: case Instr::Kind::Opaque: deps.push_back(combine(in, deps, in.arity)); break;
    case Instr::Kind::Tuple: {
      Dep d = combine(in, deps, in.arity);
      deps.resize(deps.size() - size_t(in.arity));
      deps.push_back(d);
      break;
    }
    case Instr::Kind::If: {
      const size_t depth = deps.size();
      int picked[2] = {copiedSlot(in.branches[0], depth), copiedSlot(in.branches[1], depth)};
      Dep cond = deps.back();
      if ((cond == Dep::Clean || cond == Dep::Passive) && picked[0] >= 0 && picked[1] >= 0) {
        Dep p0 = deps[size_t(picked[0])], p1 = deps[size_t(picked[1])];
        if ((p0 == Dep::State && p1 == Dep::Clean) || (p0 == Dep::Clean && p1 == Dep::State)) {
          sel = Selection{at, 0, p0 == Dep::Clean, p0 == Dep::Clean ? picked[0] : picked[1]};
          deps.push_back(Dep::Selected);
          break;
        }
      }
      // `if (x[i] > s) s = x[i]`: the chosen branch computes its value
      // (reads again what the condition read) from clean slots only.
      for (int v = 0; v < 2 && (cond == Dep::Clean || cond == Dep::Passive); ++v) {
        const int other = picked[1 - v];
        if (picked[v] >= 0 || other < 0 || deps[size_t(other)] != Dep::State) continue;
        if (readsDirty(in.branches[size_t(v)], deps, depth)) continue;
        sel = Selection{at, 0, v == 0, -1};
        break;
      }
      if (sel) {
        deps.push_back(Dep::Selected);
        break;
      }
      bool anyDirty = dirty(cond) || readsDirty(in.branches[0], deps, depth) || readsDirty(in.branches[1], deps, depth);
      deps.push_back(anyDirty ? derived(in) : Dep::Clean);
      break;
    }
    case Instr::Kind::Fold: case Instr::Kind::While: case Instr::Kind::Build: case Instr::Kind::Sum: {
      const int args = in.kind == Instr::Kind::Fold ? 3 : in.kind == Instr::Kind::Sum ? 2 : 1;
      Dep d = combine(in, deps, args);
      for (auto &b : in.branches)
        if (readsDirty(b, deps, deps.size())) d = derived(in);
      deps.push_back(d);
      break;
    }
    case Instr::Kind::New: case Instr::Kind::Store: case Instr::Kind::Resize: return std::nullopt;
    }
  }
  if (!sel || deps.back() != Dep::Selected) return std::nullopt;
  return sel;
}

// The forward loop, recording its winner: the last iteration whose value
// was chosen, lo - 1 when none, in a one-element cell. A store
// the loop never reads, so the loop is a taping twin of the forward pass's
// plain loop (opt/loop_cse replaces that one by this one).
Expr Reverser::selectionForward(const Instr &in, const Stack &stack, const Selection &sel, Expr &winner, Lets &lets) {
  const size_t n = stack.size();
  const Expr &lo = stack[n - 3].value, &hi = stack[n - 2].value;
  const std::string name = baseName(in.hint);
  Expr cell = bind(lets, name + "_at", NewArray::make(Const::makeInt(1), Type::i64(), true));
  bind(lets, "_", Store::make(cell, Const::makeInt(0), noWinner(lo), Store::Mode::Set));
  std::string i = fresh(in.indexName), s = fresh(name);
  Expr index = Var::make(i, Type::i64());
  Lets body;
  Stack bodyStack = stack;
  bodyStack.push_back({index, in.indexName});
  bodyStack.push_back({Var::make(s, in.type), in.state});
  Expr choosesValue;
  const Term &t = in.branches[0];
  for (size_t at = 0; at < t.instrs.size(); ++at) {
    if (at == sel.at) {
      const size_t top = bodyStack.size();
      if (t.instrs[at].kind == Instr::Kind::If) {
        const Expr &cond = bodyStack.back().value;
        choosesValue = sel.thenPicksValue ? cond : Prim::make(Op::Not, {cond});
      } else {
        const Expr &a = bodyStack[top - 2].value, &b = bodyStack[top - 1].value;
        choosesValue = sel.stateArg == 0 ? minMaxChoosesSecond(t.instrs[at].op, a, b)
                                         : Prim::make(Op::Not, {minMaxChoosesSecond(t.instrs[at].op, a, b)});
      }
      bind(body, "_", If::make(choosesValue,
                                Store::make(cell, Const::makeInt(0), index, Store::Mode::Set),
                                ir::Tuple::make({})));
    }
    forwardStep(t.instrs[at], bodyStack, body);
  }
  Expr result = bind(lets, in.hint,
                     Fold::make(lo, hi, stack.back().value, i, s, unf::wrapLets(body, bodyStack.back().value), in.reversedLoop));
  winner = bind(lets, name + "_winner", Index::make(cell, Const::makeInt(0)));
  return result;
}

void Reverser::selectionLoop(const Instr &in, Stack &stack, Expr *Y, Lets &lets, const Expr &forced, const Selection &sel) {
  const int n = int(stack.size());
  const Expr lo = stack[size_t(n - 3)].value;
  Expr winner;
  Expr state = selectionForward(in, stack, sel, winner, lets);
  stack.push_back({forced ? forced : state, in.hint});

  Transpose t = openTranspose(stack);
  const Expr ybar = t.cotangents[size_t(n)];
  // The body up to the select: its value slot receives ȳ.
  Term prefix;
  prefix.instrs.assign(in.branches[0].instrs.begin(), in.branches[0].instrs.begin() + long(sel.at));
  if (sel.valueSlot < 0) { // the value is the chosen branch's result: the prefix runs that branch too
    const Term &branch = in.branches[0].instrs[sel.at].branches[sel.thenPicksValue ? 0 : 1];
    prefix.instrs.insert(prefix.instrs.end(), branch.instrs.begin(), branch.instrs.end());
  }
  std::vector<TypeP> types;
  for (int k = 0; k < n; ++k) types.push_back(stack[size_t(k)].value->type);
  types.push_back(Type::i64());
  types.push_back(in.type);
  types = unf::run(prefix, types);
  const int valueSlot = sel.valueSlot < 0 ? int(types.size()) - 1 : sel.valueSlot;
  std::vector<Expr> cts;
  for (size_t k = 0; k < types.size(); ++k)
    cts.push_back(int(k) == valueSlot ? ybar : Const::zero(cotangentType(types[k])));
  std::vector<int> free = slotsWithCotangents({&prefix}, stack, n);
  Lets won;
  Stack ctx(stack.begin(), stack.begin() + n);
  // Any value of the state will do: the prefix reads it only passively.
  Expr g = bind(won, "d_" + in.state + "_body", localGradient(prefix, ctx, {{winner, in.indexName}, {state, in.state}}, cts, false));
  std::vector<Expr> fromWinner, zeros;
  for (int f : free) {
    fromWinner.push_back(Proj::make(g, f));
    zeros.push_back(Const::zero(t.cotangents[size_t(f)]->type));
  }
  Expr chosen = Prim::make(Op::Ge, {winner, lo});
  Expr d = bind(t.code, "d_" + in.state + "_winner",
                If::make(chosen, unf::wrapLets(won, ir::Tuple::make(fromWinner)), ir::Tuple::make(zeros)));
  t.cotangents.resize(size_t(n));
  t.cotangents[size_t(n - 1)] =
      accumulate(t.cotangents[size_t(n - 1)], If::make(chosen, Const::zero(ybar->type), ybar)); // the initial state
  for (size_t k = 0; k < free.size(); ++k)
    t.cotangents[size_t(free[k])] = accumulate(t.cotangents[size_t(free[k])], Proj::make(d, int(k)));
  precompose(Y, lets, t);
}

} // namespace unfad::ad::rev
