// F(build, J^T build) and F(sum, J^T sum) (Knossos §4, UNF App. A): the
// iterations are independent, so the forward value needs no tape, and J^T
// is one loop (in any order) that recomputes each element's code and runs
// its local reverse pass with the element's cotangent:
//   J^T sum lo hi (i -> e):  for i in [lo, hi): ∇e(i) · ȳ       (ȳ the same for every i)
//   J^T build n (i -> e):    for i in [0, n):   ∇e(i) · d_y[i]  (d_y the array's buffer)
// As for folds, the cotangents of the outer scalars e reads are the loop's
// state; array cotangents go to their buffers in place.
#include "cotangents.h"
#include "reverser.h"

#include <algorithm>

namespace unfad::ad::rev {

using namespace unfad::ir;
using unf::Instr;

void Reverser::parallel(const Instr &in, Stack &stack, Expr *Y, Lets &lets, const Expr &forced) {
  const bool isBuild = in.kind == Instr::Kind::Build;
  const int n = int(stack.size()); // includes the arguments (n, or lo and hi)
  Expr lo = isBuild ? Const::makeInt(0) : stack[size_t(n - 2)].value, hi = stack[size_t(n - 1)].value;
  const auto &elem = in.branches[0].instrs;
  InstrValues valueTapes;
  Expr base;
  // A sum its enclosing loop's forward pass taped (nested_tapes.cpp): only
  // its J^T, from this iteration's block of the tapes; its value is taped.
  if (auto it = replayed_.find(&in); it != replayed_.end()) {
    if (!forced) throw IRError("reverse: the value of a taped nested sum is not taped");
    valueTapes = it->second.valueTapes;
    base = it->second.base;
    stack.push_back({forced, in.hint});
  } else if (!isBuild && std::any_of(elem.begin(), elem.end(), worthTapingInSum))
    valueTapes = sumWithTapes(in, stack, lo, hi, lets);
  else
    forwardStep(in, stack, lets); // binds the build/sum; a build gets its cotangent buffer
  if (forced) stack.back().value = forced;
  Transpose t = openTranspose(stack);
  Expr buffer = isBuild ? bufferOf(stack.back().value) : nullptr;
  // (a build no derivative reaches has no buffer, and nothing to transpose)
  if (!isBuild || buffer) parallelTranspose(in, stack, n, lo, buffer, valueTapes, t, base);
  t.cotangents.resize(size_t(n));
  precompose(Y, lets, t);
}

// A sum whose element calls a helper or runs a loop is computed as the
// fold s + e(i) (the same order of additions), taping those values.
InstrValues Reverser::sumWithTapes(const Instr &in, Stack &stack, const Expr &lo, const Expr &hi, Lets &lets) {
  Expr count = bind(lets, "n", tripCount(lo, hi));
  std::string i = fresh(in.indexName), acc = fresh(in.hint.empty() ? "sum" : in.hint);
  Expr index = Var::make(i, Type::i64()), accVar = Var::make(acc, in.type);
  Stack elemStack = stack;
  elemStack.push_back({index, i});
  Lets elemLets;
  InstrValues captured;
  Expr e = forwardCapturing(in.branches[0], elemStack, elemLets, captured, worthTapingInSum);
  InstrValues valueTapes = tapeValues(captured, count, Prim::make(Op::Sub, {index, lo}), lets, elemLets);
  Expr next = bind(elemLets, acc, Prim::make(Op::Add, {accVar, e}));
  Expr r = bind(lets, in.hint, Fold::make(lo, hi, Const::zero(in.type), i, acc, unf::wrapLets(elemLets, next)));
  stack.push_back({r, in.hint});
  return valueTapes;
}

// The J^T loop over the elements; adds the cotangents of the outer slots
// the element reads into t.cotangents.
void Reverser::parallelTranspose(const Instr &in, const Stack &stack, int n, const Expr &lo, const Expr &buffer,
                                 const InstrValues &valueTapes, Transpose &t, const Expr &base) {
  const bool isBuild = in.kind == Instr::Kind::Build;
  const std::vector<Expr> ys = t.cotangents; // y_1..y_{n+1}: the cotangents of the slots and of the result
  std::vector<int> free = slotsWithCotangents({&in.branches[0]}, stack, n);
  std::vector<Expr> init;
  std::vector<TypeP> types;
  for (int f : free) {
    init.push_back(Const::zero(ys[size_t(f)]->type));
    types.push_back(ys[size_t(f)]->type);
  }
  std::string j = fresh(in.indexName), acc = fresh("d_" + (in.hint.empty() ? std::string("e") : in.hint) + "_loop");
  Expr index = Var::make(j, Type::i64()), accVar = Var::make(acc, Type::tuple(types));
  Lets body;
  Expr ct = isBuild ? bind(body, cotangentHint(stack.back()) + "_i", Index::make(buffer, index)) : ys[size_t(n)];
  std::vector<Expr> cts;
  for (int k = 0; k <= n; ++k) cts.push_back(Const::zero(k < n ? ys[size_t(k)]->type : Type::unit()));
  cts.push_back(ct);
  Stack ctx(stack.begin(), stack.begin() + n);
  const Expr at = Prim::make(Op::Sub, {index, lo});
  readTapes(valueTapes, base ? Prim::make(Op::Add, {base, at}) : at);
  Expr g = bind(body, "d_elem", localGradient(in.branches[0], ctx, {{index, j}}, cts));
  forgetTapes(valueTapes);
  std::vector<Expr> next;
  for (size_t k = 0; k < free.size(); ++k) next.push_back(accumulate(Proj::make(accVar, int(k)), Proj::make(g, free[k])));
  Expr hi = stack[size_t(n - 1)].value;
  Expr cotangents = bind(t.code, acc, Fold::make(lo, hi, ir::Tuple::make(init), j, acc, unf::wrapLets(body, ir::Tuple::make(next))));
  for (size_t k = 0; k < free.size(); ++k)
    t.cotangents[size_t(free[k])] = accumulate(t.cotangents[size_t(free[k])], Proj::make(cotangents, int(k)));
}

} // namespace unfad::ad::rev
