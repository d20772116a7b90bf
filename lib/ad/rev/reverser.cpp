// The traversal: each instruction's forward part (UNF^-1, shared with the
// source translation), its cotangent binders, the pre-composition of the
// continuation, and the dispatch to the construct's J^T.
#include "reverser.h"
#include "cotangents.h"

#include <functional>

namespace unfad::ad::rev {

using namespace unfad::ir;
using unf::Instr;
using unf::Term;

void Reverser::build(const Term &t, Stack &stack, Expr *Y, Lets &lets) {
  const Term *outer = term_;
  term_ = &t;
  for (auto &in : t.instrs) step(in, stack, Y, lets);
  term_ = outer;
}

Expr Reverser::bind(Lets &lets, const std::string &hint, Expr value) {
  std::string name = fresh(hint.empty() ? "t" : hint);
  lets.push_back({name, value});
  return Var::make(name, value->type);
}

void Reverser::step(const Instr &in, Stack &stack, Expr *Y, Lets &lets) {
  if (!Y) {
    if (!forwardTaped_.empty() && forcedForward(in, stack, lets)) return;
    if (inner_ && in.kind == Instr::Kind::Fold && innerLoopForward(in, stack, lets)) return;
    if (nested_ && in.kind == Instr::Kind::Fold && nestedLoopForward(in, stack, lets)) return;
    if (nested_ && in.kind == Instr::Kind::If && nestedBranchForward(in, stack, lets)) return;
    if (nested_ && in.kind == Instr::Kind::Sum && nestedSumForward(in, stack, lets)) return;
    return forwardPart(in, stack, lets, nullptr);
  }
  Expr forced = tapedValue(in, lets); // recomputing a taped instruction reads its tape
  switch (in.kind) {
  case Instr::Kind::Const: case Instr::Kind::Var: case Instr::Kind::Op: case Instr::Kind::Elem:
  case Instr::Kind::Tuple: case Instr::Kind::Drop: case Instr::Kind::Index: case Instr::Kind::Size:
  case Instr::Kind::New: case Instr::Kind::View: case Instr::Kind::Opaque: case Instr::Kind::Throw:
  case Instr::Kind::Effect:
    return straightLine(in, stack, Y, lets, forced);
  case Instr::Kind::Resize: return resize(in, stack, Y, lets, forced);
  case Instr::Kind::Store: return store(in, stack, Y, lets, forced);
  case Instr::Kind::Call: return call(in, stack, Y, lets, forced);
  case Instr::Kind::If: return branch(in, stack, Y, lets, forced);
  case Instr::Kind::Fold: case Instr::Kind::While: return loop(in, stack, Y, lets, forced);
  case Instr::Kind::Build: case Instr::Kind::Sum: return parallel(in, stack, Y, lets, forced);
  }
}

// The forward part of `in`, or the tape read `forced` standing for it.
void Reverser::forwardPart(const Instr &in, Stack &stack, Lets &lets, const Expr &forced) {
  if (forced) stack.push_back({forced, in.hint});
  else forwardStep(in, stack, lets);
  captureValue(in, stack);
}

// Runs the forward part of `in` (UNF^-1, shared with the source
// translation) and updates the slots.
void Reverser::forwardStep(const Instr &in, Stack &stack, Lets &lets) {
  if (skipReplayedWrite(in, stack)) return;
  resizeBuffer(in, stack, lets); // (a local array's: resize.cpp)
  std::vector<Expr> values;
  for (auto &slot : stack) values.push_back(slot.value);
  unf::forwardStep(in, values, lets, names_);
  // ... nor the writes to outputs in the branches and loops nested in it.
  if (replaying() && !in.branches.empty())
    lets.back().second = withoutOutputStores(lets.back().second);
  if (in.kind == Instr::Kind::Drop) {
    stack.erase(stack.begin() + in.index, stack.begin() + in.index + in.arity);
    return;
  }
  if (in.kind == Instr::Kind::Tuple) stack.resize(stack.size() - in.arity);
  stack.push_back({values.back(), in.hint});
  allocateBuffers(in, stack, values, lets);
}

// Recomputing a body in the reverse sweep need not redo its stores to
// parameter arrays: nothing reads them back (outputs are write-only), and
// the forward pass already wrote the same values; nor its calls that only
// write outputs (void helpers given a parameter array). Such a write pushes
// the unit () without code. Nor does it redo a `throw`: the forward pass
// would have thrown; nor print again what the forward pass printed (an
// Effect: f_grad prints what f prints, once).
bool Reverser::skipReplayedWrite(const Instr &in, Stack &stack) {
  if (!replaying()) return false;
  bool skip = (in.kind == Instr::Kind::Throw && in.type->isUnit()) ||
              (in.kind == Instr::Kind::Resize && !localResize(in, stack)) || in.kind == Instr::Kind::Effect;
  if (in.kind == Instr::Kind::Store)
    if (auto a = stack[stack.size() - 3].value->as<Var>(); a && !sizes_.count(a->name)) skip = true;
  if (in.kind == Instr::Kind::Call && in.type->isUnit()) {
    std::vector<Expr> args;
    for (size_t k = stack.size() - in.arity; k < stack.size(); ++k) args.push_back(stack[k].value);
    skip = writesOutput(in.callee, args);
  }
  if (skip) stack.push_back({ir::Tuple::make({}), in.hint});
  return skip;
}

// Cotangent buffers of the arrays `in` made (`values`: the slots' values
// before it, then its result).
void Reverser::allocateBuffers(const Instr &in, Stack &stack, const std::vector<Expr> &values, Lets &lets) {
  // A row a[i] of an array of arrays: its cotangent buffer is d_a[i]; a
  // row of a parameter is parameter memory (a replay does not redo its stores).
  if (in.kind == Instr::Kind::Index && in.type->isArray())
    if (auto v = values.back()->as<Var>()) {
      if (Expr buffer = bufferOf(stack[stack.size() - 3].value))
        buffers_[v->name] = Index::make(buffer, stack[stack.size() - 2].value);
      if (auto table = rootArray(stack[stack.size() - 3].value)->as<Var>(); table && params_.count(table->name))
        params_.insert(v->name);
    }
  // A local array (new or build) gets its cotangent buffer next to it.
  if (in.kind == Instr::Kind::New || in.kind == Instr::Kind::Build)
    if (auto v = values.back()->as<Var>()) {
      sizes_[v->name] = stack[stack.size() - 2].value;
      allocatedAt_[v->name] = recomputing_;
      if (isActive(in.type))
        buffers_[v->name] = bind(lets, "d_" + v->name, NewArray::make(stack[stack.size() - 2].value, in.type->elem()));
    }
}

std::string cotangentHint(const Slot &slot) {
  std::string hint = slot.hint;
  if (auto v = slot.value->as<Var>()) hint = v->name;
  return "d_" + (hint.empty() ? std::string("t") : hint);
}

// Binders y_1..y_m for the cotangents of the slots of `stack`.
std::vector<Binder> Reverser::cotangentBinders(const Stack &stack) {
  std::vector<Binder> ys;
  for (auto &slot : stack) ys.push_back({fresh(cotangentHint(slot)), cotangentType(slot.value->type)});
  return ys;
}

Transpose Reverser::openTranspose(const Stack &stack) {
  Transpose t;
  t.binders = cotangentBinders(stack);
  for (auto &b : t.binders) t.cotangents.push_back(Var::make(b.name, b.type));
  return t;
}

// Y' = fun ys -> (J^T code) Y(cotangents); Y becomes the new continuation.
void Reverser::precompose(Expr *Y, Lets &lets, Transpose &t) {
  Expr body = unf::wrapLets(t.code, App::make(*Y, std::move(t.cotangents)));
  *Y = bind(lets, "Y", Lambda::make(t.binders, body));
}

namespace {

// Whether a value of type t holds an array (it has no zero to stand for it).
bool holdsArray(const TypeP &t) {
  if (t->isArray()) return true;
  if (t->isTuple())
    for (auto &e : t->elems)
      if (holdsArray(e)) return true;
  return false;
}

} // namespace

// The last `if` of `t` when only instructions whose J^T reads no forward
// value and no memory follow it (drops, copies, constants, tuples and their
// components: a body's unit state `()`).
const Instr *endingBranch(const Term &t) {
  for (auto in = t.instrs.rbegin(); in != t.instrs.rend(); ++in)
    switch (in->kind) {
    case Instr::Kind::Drop: case Instr::Kind::Var: case Instr::Kind::Const: case Instr::Kind::Tuple:
    case Instr::Kind::Elem:
      continue;
    case Instr::Kind::If: return &*in;
    default: return nullptr;
    }
  return nullptr;
}

bool Reverser::skipsForward(const Instr &in) const {
  if (!unusedResults_.count(&in) || in.kind == Instr::Kind::Throw) return false;
  if (in.kind == Instr::Kind::If) return !holdsArray(in.type) && !hasFunc(in.type);
  return in.type->isScalar();
}

// The reverse pass of a term run from `ctx` plus `extra` slots, from the
// identity continuation: the cotangents of ctx+extra given `cts`, the
// cotangents of ctx+extra+result. Its forward values are recomputed.
//
// For a whole body (a loop's, an element's, a branch's), an `if` that ends
// it (see endingBranch) is not recomputed forward: nothing after it in the
// body reads its value or the memory it writes (the body's J^T reads only
// the cotangent of its result), and its own J^T recomputes the branch taken
// from the memory it found. Without this, a loop whose body ends in an `if`
// over an inner loop (a layer chosen by its index) ran that inner loop once
// more per iteration of its J^T, only to undo it.
Expr Reverser::localGradient(const Term &t, const Stack &ctx, const Stack &extra, const std::vector<Expr> &cts,
                             bool wholeBody) {
  const Instr *unused = wholeBody ? endingBranch(t) : nullptr;
  const bool marked = unused && unusedResults_.insert(unused).second;
  Stack stack = ctx;
  stack.insert(stack.end(), extra.begin(), extra.end());
  Lets lets;
  auto zs = cotangentBinders(stack);
  std::vector<Expr> identity;
  for (auto &z : zs) identity.push_back(Var::make(z.name, z.type));
  Expr Y = bind(lets, "Y", Lambda::make(zs, ir::Tuple::make(identity)));
  ++recomputing_;
  build(t, stack, &Y, lets);
  --recomputing_;
  if (marked) unusedResults_.erase(unused);
  return unf::wrapLets(lets, App::make(Y, cts));
}

// The forward (source UNF^-1) code of a term run on `stack`.
Expr Reverser::forwardOnly(const Term &t, const Stack &stack) {
  Stack s = stack;
  Lets lets;
  build(t, s, nullptr, lets);
  return unf::wrapLets(lets, s.back().value);
}

Expr Reverser::bufferOf(const Expr &array) {
  // the cotangent buffer of a view a + o is d_a + o: the same elements
  if (auto view = array->as<View>()) {
    Expr buffer = bufferOf(view->array);
    return buffer ? View::make(buffer, view->offset) : nullptr;
  }
  auto v = array->as<Var>();
  if (!v) throw IRError("reverse: array value that is not a variable");
  auto it = buffers_.find(v->name);
  return it == buffers_.end() ? nullptr : it->second;
}

// The slots of the enclosing context (index < n) that `terms` refer to and
// that carry a cotangent, in order: a loop's J^T accumulates theirs.
std::vector<int> Reverser::slotsWithCotangents(const std::vector<const Term *> &terms, const Stack &stack, int n) {
  std::set<int> referenced;
  std::function<void(const Term &)> visit = [&](const Term &t) {
    for (auto &in : t.instrs) {
      if (in.kind == Instr::Kind::Var && in.index < n) referenced.insert(in.index);
      for (auto &b : in.branches) visit(b);
    }
  };
  for (const Term *t : terms) visit(*t);
  std::vector<int> out;
  for (int slot : referenced)
    if (!cotangentType(stack[size_t(slot)].value->type)->isUnit()) out.push_back(slot);
  return out;
}

} // namespace unfad::ad::rev
