// F(resize, J^T resize) on a local array (a class's vector member resized
// after it is built: lib/frontend/resized_members.cpp). std::vector's
// resize keeps the elements below the smaller size and adds zeros:
//
//   forward:  m = size(a); kept = a[n..m) (what a shrink drops);
//             resize(a, n); resize(d_a, n)
//   J^T:      resize(a, m); a[n..m) = kept; resize(d_a, m)
//
// The added zeros are constants: resizing d_a back to m forgets their
// cotangents. The dropped elements reach nothing after the resize: their
// cotangents are the zeros d_a regrows with. The primal's old size and
// elements are put back for the recomputations earlier in the sweep, as a
// store's J^T puts back the element it overwrote. An array resized from
// its allocation's zero elements keeps nothing (nothing to drop).
//
// d_a follows a's size in the forward sweep. A recomputation (a loop body
// run again for its J^T) resizes only the buffers of arrays it allocated
// itself: the others already have the size the continuation's J^T left
// them at, which is the size after the last resize of the recomputed code.
//
// Once resized, an array's size is read at run time (sizes_: snapshots
// and undo logs sized after the resize). The front end keeps each resize
// in the block that allocates the array, so no loop it is inside of
// changes its size while it runs.
#include "reverser.h"

namespace unfad::ad::rev {

using namespace unfad::ir;
using unf::Instr;

bool Reverser::localResize(const Instr &in, const Stack &stack) const {
  if (in.kind != Instr::Kind::Resize) return false;
  auto a = stack[stack.size() - 2].value->as<Var>();
  return a && sizes_.count(a->name) && !params_.count(a->name);
}

// The forward part's resize of the cotangent buffer (forwardStep).
void Reverser::resizeBuffer(const Instr &in, const Stack &stack, Lets &lets) {
  if (!localResize(in, stack)) return;
  const std::string &a = stack[stack.size() - 2].value->as<Var>()->name;
  auto depth = allocatedAt_.find(a);
  if (depth == allocatedAt_.end() || depth->second != recomputing_) return;
  if (Expr buffer = bufferOf(stack[stack.size() - 2].value))
    bind(lets, "_", Resize::make(buffer, stack[stack.size() - 1].value));
}

void Reverser::resize(const Instr &in, Stack &stack, Expr *Y, Lets &lets, const Expr &forced) {
  if (!localResize(in, stack)) return straightLine(in, stack, Y, lets, forced); // an output's size
  const Stack before = stack;
  const size_t n = before.size();
  Expr array = before[n - 2].value, size = before[n - 1].value;
  const std::string &name = array->as<Var>()->name;
  // (its allocation's size until its first resize, then size(a))
  auto known = sizes_.at(name)->as<Const>();
  const bool wasEmpty = known && known->ivalue == 0;
  Expr old = wasEmpty ? Const::makeInt(0) : bind(lets, "old_size_" + name, Size::make(array));
  Expr kept;
  if (!wasEmpty) {
    Expr dropped = Prim::make(Op::Sub, {old, size});
    Expr count = If::make(Prim::make(Op::Gt, {dropped, Const::makeInt(0)}), dropped, Const::makeInt(0));
    std::string j = fresh("j");
    kept = bind(lets, "kept_" + name,
                Build::make(count, j, Index::make(array, Prim::make(Op::Add, {size, Var::make(j, Type::i64())}))));
  }
  forwardPart(in, stack, lets, forced);
  sizes_[name] = Size::make(array);
  Transpose t = openTranspose(stack);
  t.cotangents.pop_back(); // (the unit)
  bind(t.code, "_", Resize::make(array, old));
  if (kept) {
    std::string j = fresh("j"), s = fresh("state");
    Expr at = Var::make(j, Type::i64());
    Expr put = Store::make(array, Prim::make(Op::Add, {size, at}), Index::make(kept, at), Store::Mode::Set);
    bind(t.code, "_", Fold::make(Const::makeInt(0), Size::make(kept), ir::Tuple::make({}), j, s,
                                 Let::make(fresh("_"), put, ir::Tuple::make({}))));
  }
  if (Expr buffer = isActive(array->type) ? bufferOf(array) : nullptr) bind(t.code, "_", Resize::make(buffer, old));
  precompose(Y, lets, t);
}

} // namespace unfad::ad::rev
