// J^T of the straight-line instructions: each rewrites the cotangents the
// continuation receives (y_1..y_{n+1} for the slots after the instruction
// become those of the n slots before it), and array reads and stores
// accumulate into cotangent buffers in place.
#include "cotangents.h"
#include "reverser.h"
#include "unfad/ad/derivatives.h"

namespace unfad::ad::rev {

using namespace unfad::ir;
using unf::Instr;

void Reverser::straightLine(const Instr &in, Stack &stack, Expr *Y, Lets &lets, const Expr &forced) {
  const Stack before = stack;
  forwardPart(in, stack, lets, forced);
  Transpose t = openTranspose(stack);
  switch (in.kind) {
  case Instr::Kind::Const: case Instr::Kind::Size: case Instr::Kind::New:
  case Instr::Kind::View: // (an array's cotangent is in its buffer: d_a + o for a view)
  case Instr::Kind::Opaque: // its arguments are passive (the front end checked)
  case Instr::Kind::Throw: // the path ends: nothing flows back from it
  case Instr::Kind::Effect: // printing: no derivative, even of an active number it prints
  case Instr::Kind::Resize: // (an output's size: an integer)
    t.cotangents.pop_back(); // J^T: the cotangent is forgotten
    break;
  case Instr::Kind::Var: transposeVar(in, t); break;
  case Instr::Kind::Op: transposeOp(in, before, stack.back().value, t); break;
  case Instr::Kind::Elem: transposeElem(in, t); break;
  case Instr::Kind::Tuple: transposeTuple(in, t); break;
  case Instr::Kind::Drop: transposeDrop(in, before, t); break;
  case Instr::Kind::Index: transposeIndex(in, before, t); break;
  case Instr::Kind::Store: case Instr::Kind::Call: case Instr::Kind::If: case Instr::Kind::Fold:
  case Instr::Kind::While: case Instr::Kind::Build: case Instr::Kind::Sum:
    throw IRError("reverse: not a straight-line instruction");
  }
  precompose(Y, lets, t);
}

// J^T var_i: y_i += y_{n+1}
void Reverser::transposeVar(const Instr &in, Transpose &t) {
  Expr top = t.cotangents.back();
  t.cotangents.pop_back();
  t.cotangents[size_t(in.index)] = accumulate(t.cotangents[size_t(in.index)], top);
}

// J^T op: y_{arg k} += ∂_k op · y_result, in arg k's type (only a cast
// changes it); the partials come from the table (derivatives.cpp).
void Reverser::transposeOp(const Instr &in, const Stack &before, const Expr &result, Transpose &t) {
  const int n = int(before.size());
  Expr z = t.cotangents.back();
  t.cotangents.pop_back();
  std::vector<Expr> args;
  for (int k = n - in.arity; k < n; ++k) args.push_back(before[size_t(k)].value);
  auto ds = partials(in.op, args, result);
  for (int k = 0; k < in.arity; ++k) {
    if (!ds[size_t(k)]) continue;
    const Expr &d = ds[size_t(k)];
    // (a partial of exactly 1 passes the cotangent on: 1 · z = z)
    auto one = d->as<Const>();
    Expr contribution = one && one->isOne() ? z : Prim::make(Op::Mul, {d, z});
    if (!sameType(contribution->type, args[size_t(k)]->type))
      contribution = Prim::makeCast(contribution, args[size_t(k)]->type);
    Expr &ct = t.cotangents[size_t(n - in.arity + k)];
    ct = accumulate(ct, contribution);
  }
}

// J^T π_i: the tuple's cotangent gets y_result in component i.
void Reverser::transposeElem(const Instr &in, Transpose &t) {
  Expr z = t.cotangents.back();
  t.cotangents.pop_back();
  if (!isActive(in.type)) return;
  Expr tuple = t.cotangents.back();
  std::vector<Expr> elems;
  for (int j = 0; j < int(tuple->type->elems.size()); ++j) {
    Expr c = Proj::make(tuple, j);
    elems.push_back(j == in.index ? accumulate(c, z) : c);
  }
  t.cotangents.back() = makeTuple(tuple->type, std::move(elems));
}

// J^T tuple: split the cotangent into its components.
void Reverser::transposeTuple(const Instr &in, Transpose &t) {
  Expr z = t.cotangents.back();
  t.cotangents.pop_back();
  for (int k = 0; k < in.arity; ++k) t.cotangents.push_back(Proj::make(z, k));
}

// J^T proj (drop): the forgotten slots get zero cotangents.
void Reverser::transposeDrop(const Instr &in, const Stack &before, Transpose &t) {
  std::vector<Expr> zeros;
  for (int k = in.index; k < in.index + in.arity; ++k)
    zeros.push_back(Const::zero(cotangentType(before[size_t(k)].value->type)));
  t.cotangents.insert(t.cotangents.begin() + in.index, zeros.begin(), zeros.end());
}

// J^T a[i]: d_a[i] += y_result, in place.
void Reverser::transposeIndex(const Instr &in, const Stack &before, Transpose &t) {
  const size_t n = before.size();
  Expr z = t.cotangents.back();
  t.cotangents.pop_back();
  // (a row a[i] of an array of arrays has d_a[i] as its buffer: its reads
  // accumulate there directly, see allocateBuffers)
  if (in.type->isArray()) return;
  if (Expr buffer = isActive(in.type) ? bufferOf(before[n - 2].value) : nullptr)
    bind(t.code, "_", Store::make(buffer, before[n - 1].value, asElement(z, in.type), Store::Mode::Add));
}

// F(store, J^T store):
//   J^T a[i] = v:  y_v += d_a[i]; d_a[i] = 0 (the old a[i] is gone)
//   J^T a[i] += v: y_v += d_a[i]
// (with a field path p: d_a[i].p instead of d_a[i]). A store into a local
// array saves the element it overwrites; its J^T puts it back
// (recomputations earlier in the sweep read it).
void Reverser::store(const Instr &in, Stack &stack, Expr *Y, Lets &lets, const Expr &forced) {
  const Stack before = stack;
  const size_t n = before.size();
  Expr array = before[n - 3].value, index = before[n - 2].value;
  Expr overwritten;
  if (auto a = array->as<Var>(); a && sizes_.count(a->name))
    overwritten = bind(lets, "old_" + a->name, Index::make(array, index));
  forwardPart(in, stack, lets, forced);
  Transpose t = openTranspose(stack);
  t.cotangents.pop_back();
  if (Expr buffer = isActive(array->type) ? bufferOf(array) : nullptr) {
    Expr elem = Index::make(buffer, index);
    for (int k : in.path) elem = Proj::make(elem, k);
    Expr d = bind(t.code, "d_" + (array->is<Var>() ? array->as<Var>()->name : std::string("a")) + "_i", elem);
    if (!in.addStore) bind(t.code, "_", Store::make(buffer, index, Const::zero(d->type), Store::Mode::Set, in.path));
    t.cotangents[n - 1] = accumulate(t.cotangents[n - 1], asCotangent(d));
  }
  if (overwritten) bind(t.code, "_", Store::make(array, index, overwritten, Store::Mode::Set));
  precompose(Y, lets, t);
}

} // namespace unfad::ad::rev
