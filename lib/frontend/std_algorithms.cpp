// Standard algorithms on arrays, lowered to the IR's loops instead of being
// followed into the library's bodies: std::fill, std::fill_n, std::iota, std::copy,
// std::swap (of scalars and of array elements), std::accumulate,
// std::inner_product, and the values `*std::max_element(...)`,
// `*std::min_element(...)`; sorting is in sorting.cpp. Iterator ranges are recognised syntactically:
// `v.begin()`, `v.end()`, `std::begin(v)`, `std::end(v)`, `a`, `a + k`,
// `v.data() + k`, `v.begin() + k`, and any other pointer or iterator as the
// view it is (pointers.cpp, iterators.cpp).
#include "lowering.h"

#include "unfad/ir/counts.h"
#include "unfad/ir/equal.h"

#include <clang/AST/DeclCXX.h>
#include <clang/Basic/Builtins.h>

namespace unfad::frontend {

using namespace clang;

namespace {

bool inStd(const FunctionDecl *fd) {
  if (!fd || !fd->getIdentifier()) return false;
  const DeclContext *dc = fd->getDeclContext()->getRedeclContext();
  while (dc && dc->isInlineNamespace()) dc = dc->getParent()->getRedeclContext();
  return dc && dc->isStdNamespace();
}

} // namespace

// `e` as an iterator into an array: the array's buffer and the element
// index it points at. False when `e` has none of the recognised forms.
bool Lowering::iteratorRef(const Expr *e, Env &env, ir::Expr &array, ir::Expr &offset) {
  e = stripIteratorCopies(e);
  if (iteratorKind(e->getType()) == IteratorKind::Reverse) // (a range walked backwards)
    fail(e->getExprLoc(), "reverse iterators are not supported in this standard algorithm (they are in accumulate, "
                          "reduce, inner_product, transform_reduce, transform, for_each, copy and count_if; or write "
                          "the loop: 'for (auto it = v.rbegin(); it != v.rend(); ++it)')");
  ArrayInfo ai;
  // a + k, v.begin() + k, v.data() + k (and k + a)
  const Expr *base = nullptr, *k = nullptr;
  if (const auto *b = dyn_cast<BinaryOperator>(e); b && b->isAdditiveOp()) {
    bool ptrLeft = b->getLHS()->getType()->isPointerType() || b->getLHS()->IgnoreParenImpCasts()->getType()->isArrayType();
    base = ptrLeft ? b->getLHS() : b->getRHS(), k = ptrLeft ? b->getRHS() : b->getLHS();
    if (b->getOpcode() == BO_Sub && !ptrLeft) return false;
    ir::Expr a, o;
    if (!iteratorRef(base, env, a, o)) return false;
    ir::Expr kk = lowerIndexExpr(k, env);
    offset = ir::Prim::make(b->getOpcode() == BO_Add ? ir::Op::Add : ir::Op::Sub, {o, kk});
    array = a;
    return true;
  }
  if (const auto *oc = dyn_cast<CXXOperatorCallExpr>(e);
      oc && (oc->getOperator() == OO_Plus || oc->getOperator() == OO_Minus) && oc->getNumArgs() == 2) {
    ir::Expr a, o;
    if (!iteratorRef(oc->getArg(0), env, a, o)) return false;
    offset = ir::Prim::make(oc->getOperator() == OO_Plus ? ir::Op::Add : ir::Op::Sub, {o, lowerIndexExpr(oc->getArg(1), env)});
    array = a;
    return true;
  }
  auto beginEnd = [&](const Expr *obj, llvm::StringRef n) {
    if (!arrayInfo(obj->getType(), ai, SourceLocation())) return false;
    array = lowerArrayRef(obj, env);
    offset = n.ends_with("begin") ? ir::Const::makeInt(0) : arraySize(obj, array, e->getExprLoc(), env);
    return true;
  };
  if (const auto *mc = dyn_cast<CXXMemberCallExpr>(e); mc && mc->getMethodDecl() && mc->getMethodDecl()->getIdentifier() && mc->getNumArgs() == 0) {
    llvm::StringRef n = mc->getMethodDecl()->getName();
    if (n == "begin" || n == "cbegin" || n == "end" || n == "cend") return beginEnd(mc->getImplicitObjectArgument(), n);
    if (n == "data" && arrayInfo(mc->getObjectType(), ai, SourceLocation())) {
      array = lowerArrayRef(mc->getImplicitObjectArgument(), env);
      offset = ir::Const::makeInt(0);
      return true;
    }
    return false;
  }
  if (const auto *c = dyn_cast<CallExpr>(e); c && c->getNumArgs() == 1 && inStd(c->getDirectCallee())) {
    llvm::StringRef n = c->getDirectCallee()->getName();
    if (n == "begin" || n == "cbegin" || n == "end" || n == "cend") return beginEnd(c->getArg(0), n);
    return false;
  }
  if (const auto *d = dyn_cast<DeclRefExpr>(e)) {
    const auto *vd = dyn_cast<VarDecl>(d->getDecl());
    if (!vd || flatStride_.count(vd) || !arrayInfo(vd->getType(), ai, SourceLocation())) return false;
    if (ptrBase_.count(vd) || iteratorKind(vd->getType()) != IteratorKind::None) { // a pointer or iterator local
      ir::Expr view = lowerExpr(e, env);
      array = ir::rootArray(view), offset = ir::viewOffset(view);
      return true;
    }
    if (ai.kind == ArrayInfo::Vector || ai.kind == ArrayInfo::StdArray) return false; // a container, not an iterator
    // (a helper's pointer parameter given a view, `mean(x, x + n)`: where it points)
    const ir::Expr view = lowerArrayRef(d, env);
    array = ir::rootArray(view), offset = ir::viewOffset(view);
    return true;
  }
  // any other pointer or iterator (`&x[k]`, `std::next(it)`): a view into its array
  if (e->getType()->isPointerType() || iteratorKind(e->getType()) != IteratorKind::None) {
    ir::Expr view = lowerPointerExpr(e, env);
    if (!view) view = lowerExpr(e, env);
    if (!view->type->isArray()) return false;
    array = ir::rootArray(view);
    offset = ir::viewOffset(view);
    return true;
  }
  return false;
}

// A fresh array holding a[lo, lo + n), made in `binds`: what an algorithm
// that permutes the range in place (sort, reverse) reads from.
ir::Expr Lowering::rangeCopy(const ir::Expr &a, const ir::Expr &lo, const ir::Expr &n, const std::string &hint,
                             Binds &binds, SourceLocation loc) {
  const std::string name = names_.fresh(hint);
  const ir::Expr copy = ir::Var::make(name, a->type);
  binds.push_back({name, ir::NewArray::make(n, a->type->elem())});
  binds.push_back({names_.fresh("_"), copyElements(a, lo, copy, nullptr, n, loc)});
  return copy;
}

// Both ends of a range [first, last) into one array: the array, the first
// index and the length.
bool Lowering::iteratorRange(const Expr *first, const Expr *last, Env &env, ir::Expr &array, ir::Expr &lo,
                             ir::Expr &n) {
  Walk w;
  if (!rangeWalk(first, last, env, w, n, false)) return false;
  array = w.array, lo = w.first;
  return true;
}

ir::Expr Lowering::Walk::at(const ir::Expr &j) const {
  return ir::Prim::make(backward ? ir::Op::Sub : ir::Op::Add, {first, j});
}

// A reverse iterator is the view at the element it refers to (iterators.cpp).
bool Lowering::iteratorWalk(const Expr *e, Env &env, Walk &w) {
  if (iteratorKind(stripIteratorCopies(e)->getType()) != IteratorKind::Reverse) {
    w.backward = false;
    return iteratorRef(e, env, w.array, w.first);
  }
  const ir::Expr view = lowerArrayRef(stripIteratorCopies(e), env);
  w = Walk{ir::rootArray(view), ir::viewOffset(view), true};
  return true;
}

// Both ends of a range [first, last) into one array, walked forwards (or,
// with `backwardToo`, backwards too), and its length.
bool Lowering::rangeWalk(const Expr *first, const Expr *last, Env &env, Walk &w, ir::Expr &n, bool backwardToo) {
  Walk end;
  if (backwardToo ? !iteratorWalk(first, env, w) || !iteratorWalk(last, env, end)
                  : !iteratorRef(first, env, w.array, w.first) || !iteratorRef(last, env, end.array, end.first))
    return false;
  // (an array, or a row of an array of arrays: `row.begin()` of `for (auto& row : m)`)
  auto v1 = ir::storageArray(w.array)->as<ir::Var>(), v2 = ir::storageArray(end.array)->as<ir::Var>();
  if (!v1 || !v2 || !ir::alphaEqual(w.array, end.array) || w.backward != end.backward)
    fail(first->getExprLoc(), "the two ends of this range are not recognised as iterators into the same array");
  // (`v.begin() + i * d, v.begin() + (i + 1) * d`: the length d, not
  // (i + 1) * d - i * d, so that it bounds the room of a vector the range
  // is appended to)
  n = w.backward ? ir::differenceOf(w.first, end.first) : ir::differenceOf(end.first, w.first);
  return true;
}

// A loop over j in [0, n) whose body `body(j)` returns the new state.
ir::Expr Lowering::foldRange(const ir::Expr &n, const ir::Expr &init,
                             const std::function<ir::Expr(const ir::Expr &, const ir::Expr &)> &body) {
  std::string j = names_.fresh("j"), st = names_.fresh("acc");
  ir::Expr b = body(ir::Var::make(j, ir::Type::i64()), ir::Var::make(st, init->type));
  return ir::Fold::make(ir::Const::makeInt(0), n, init, j, st, b);
}

ir::Expr Lowering::lowerStdAlgorithm(const CallExpr *ce, Env &env) {
  const FunctionDecl *fd = ce->getDirectCallee();
  if (!inStd(fd)) return nullptr;
  llvm::StringRef name = fd->getName();
  unsigned nargs = ce->getNumArgs();
  SourceLocation loc = ce->getExprLoc();
  auto add = [](const ir::Expr &a, const ir::Expr &b) { return ir::Prim::make(ir::Op::Add, {a, b}); };
  ir::Expr a, lo, n;
  if ((name == "fill" && nargs == 3 && iteratorRange(ce->getArg(0), ce->getArg(1), env, a, lo, n)) ||
      (name == "fill_n" && nargs == 3 && iteratorRef(ce->getArg(0), env, a, lo))) {
    if (name == "fill_n") n = lowerIndexExpr(ce->getArg(1), env);
    ir::Expr v = convert(lowerExpr(ce->getArg(2), env), a->type->elem());
    return fillElements(a, lo, n, v, loc);
  }
  if (name == "iota" && nargs == 3 && iteratorRange(ce->getArg(0), ce->getArg(1), env, a, lo, n)) {
    // value, value + 1, ...: ++ adds 1 (exactly, for floating-point values of moderate size too)
    ir::TypeP t = a->type->elem();
    if (!t->isScalar() || t->isBool()) fail(loc, "'std::iota' of non-numeric values is not supported");
    ir::Expr v = convert(lowerExpr(ce->getArg(2), env), t);
    return effectLoop(n, [&](const ir::Expr &j) { return store(a, add(lo, j), add(v, convert(j, t)), ir::Store::Mode::Set, loc); });
  }
  if (Walk from, to; name == "copy" && nargs == 3 && rangeWalk(ce->getArg(0), ce->getArg(1), env, from, n)) {
    if (!iteratorWalk(ce->getArg(2), env, to))
      fail(ce->getArg(2)->getExprLoc(), "the destination of 'std::copy' is not recognised as an iterator into an array");
    if (!ir::sameType(from.array->type, to.array->type))
      fail(loc, "'std::copy' between arrays of different element types is not supported");
    if (!from.backward && !to.backward) return copyElements(from.array, from.first, to.array, to.first, n, loc);
    // (reversed: element by element, in the library's order)
    return effectLoop(n, [&](const ir::Expr &j) {
      return store(to.array, to.at(j), read(from.array, from.at(j), loc), ir::Store::Mode::Set, loc);
    });
  }
  if (name == "reverse" && nargs == 2 && iteratorRange(ce->getArg(0), ce->getArg(1), env, a, lo, n)) {
    // a[lo + j] = copy[n - 1 - j]: the reversed copy (the swaps' result, in place)
    Binds binds;
    const ir::Expr copy = rangeCopy(a, lo, n, "unreversed", binds, loc);
    ir::Expr last = ir::Prim::make(ir::Op::Sub, {n, ir::Const::makeInt(1)});
    return wrap(binds, effectLoop(n, [&](const ir::Expr &j) {
                  return store(a, add(lo, j), read(copy, ir::Prim::make(ir::Op::Sub, {last, j}), loc), ir::Store::Mode::Set, loc);
                }));
  }
  if ((name == "partial_sum" || name == "adjacent_difference") && nargs == 3 &&
      iteratorRange(ce->getArg(0), ce->getArg(1), env, a, lo, n))
    return lowerRunningRange(ce, a, lo, n, env);
  Walk w;
  if (name == "reduce" && (nargs == 2 || nargs == 3) && rangeWalk(ce->getArg(0), ce->getArg(1), env, w, n)) {
    // (in order: the IR's sums are exact in any order only for integers; the
    // library may reorder, which changes the last bits, never the derivative)
    ir::TypeP t = typeOf(ce->getType().getUnqualifiedType(), loc);
    if (!t->isScalar()) fail(loc, "'std::reduce' of non-scalar values is not supported");
    ir::Expr init = nargs == 3 ? convert(lowerExpr(ce->getArg(2), env), t) : ir::Const::zero(t);
    return foldRange(n, init, [&](const ir::Expr &j, const ir::Expr &acc) {
      return ir::Prim::make(ir::Op::Add, {acc, convert(read(w.array, w.at(j), loc), t)});
    });
  }
  if ((name == "accumulate" && nargs == 3) || (name == "inner_product" && nargs == 4)) {
    Walk b;
    if (!rangeWalk(ce->getArg(0), ce->getArg(1), env, w, n)) return nullptr;
    if (name == "inner_product" && !iteratorWalk(ce->getArg(2), env, b))
      fail(ce->getArg(2)->getExprLoc(), "the second range of 'std::inner_product' is not recognised as an array");
    ir::TypeP t = typeOf(ce->getType().getUnqualifiedType(), loc); // the type of the initial value
    if (!t->isScalar()) fail(loc, "'std::" + name.str() + "' of non-scalar values is not supported");
    ir::Expr init = convert(lowerExpr(ce->getArg(nargs - 1), env), t);
    return foldRange(n, init, [&](const ir::Expr &j, const ir::Expr &acc) {
      ir::Expr x = read(w.array, w.at(j), loc);
      if (b.array) {
        ir::TypeP pt = x->type->isFloat() ? x->type : b.array->type->elem();
        x = ir::Prim::make(ir::Op::Mul, {convert(x, pt), convert(read(b.array, b.at(j), loc), pt)});
      }
      // `init + x` in C++'s arithmetic conversions, then back to the init's type
      ir::TypeP ct = t->isFloat() ? t : x->type;
      return convert(ir::Prim::make(ir::Op::Add, {convert(acc, ct), convert(x, ct)}), t);
    });
  }
  if (name == "swap" && nargs == 2) return lowerSwap(ce, env);
  if (((name == "sort" || name == "stable_sort") && (nargs == 2 || nargs == 3)) ||
      ((name == "nth_element" || name == "partial_sort") && (nargs == 3 || nargs == 4)))
    return lowerSort(ce, env);
  return lowerCallableAlgorithm(ce, env); // with callables: callable_algorithms.cpp
}

// std::partial_sum(first, last, out) and std::adjacent_difference(first,
// last, out): running sums and differences, carried through the loop as
// the library does (so `out` may be `first`: each element is read before
// its place is written). out[0] = a[0]; then out[j] = acc + a[j] with acc
// the sum so far, or out[j] = a[j] - a[j - 1] with the previous element
// as it was read.
ir::Expr Lowering::lowerRunningRange(const CallExpr *ce, const ir::Expr &a, const ir::Expr &lo, const ir::Expr &n,
                                     Env &env) {
  const SourceLocation loc = ce->getExprLoc();
  const bool sum = ce->getDirectCallee()->getName() == "partial_sum";
  ir::Expr d, dlo;
  if (!iteratorRef(ce->getArg(2), env, d, dlo))
    fail(ce->getArg(2)->getExprLoc(), "the destination of this algorithm is not recognised as an iterator into an array");
  const ir::TypeP t = d->type->elem();
  if (!t->isScalar() || !a->type->elem()->isScalar()) fail(loc, "this algorithm of non-scalar values is not supported");
  auto add = [](const ir::Expr &x, const ir::Expr &y) { return ir::Prim::make(ir::Op::Add, {x, y}); };
  // (an empty range writes nothing: the first element is read only when n > 0)
  const std::string f = names_.fresh("first");
  const ir::Expr first = ir::Var::make(f, t);
  ir::Expr rest = foldRange(ir::Prim::make(ir::Op::Sub, {n, ir::Const::makeInt(1)}), first,
                            [&](const ir::Expr &j, const ir::Expr &carried) {
                              const ir::Expr at = add(j, ir::Const::makeInt(1));
                              const std::string x = names_.fresh("x");
                              const ir::Expr xv = ir::Var::make(x, t);
                              const ir::Expr out = sum ? add(carried, xv) : ir::Prim::make(ir::Op::Sub, {xv, carried});
                              const std::string o = names_.fresh(sum ? "partial" : "difference");
                              const ir::Expr ov = ir::Var::make(o, t);
                              return ir::Let::make(
                                  x, convert(read(a, add(lo, at), loc), t),
                                  ir::Let::make(o, out,
                                                ir::Let::make(names_.fresh("_"), store(d, add(dlo, at), ov, ir::Store::Mode::Set, loc),
                                                              sum ? ov : xv)));
                            });
  ir::Expr body = ir::Let::make(
      f, convert(read(a, lo, loc), t),
      ir::Let::make(names_.fresh("_"), store(d, dlo, first, ir::Store::Mode::Set, loc),
                    ir::Let::make(names_.fresh("_"), rest, ir::Tuple::make({}))));
  return ir::If::make(ir::Prim::make(ir::Op::Lt, {ir::Const::makeInt(0), n}), body, ir::Tuple::make({}));
}

// `*std::max_element(first, last)` / `*std::min_element(first, last)`: the
// first largest (smallest) element, as the library finds it.
ir::Expr Lowering::lowerExtremeElement(const Expr *call, Env &env) {
  const auto *ce = dyn_cast<CallExpr>(stripIteratorCopies(call));
  if (!ce || ce->getNumArgs() != 2 || !inStd(ce->getDirectCallee())) return nullptr;
  llvm::StringRef name = ce->getDirectCallee()->getName();
  if (name != "max_element" && name != "min_element") return nullptr;
  ir::Expr a, lo, n;
  if (!iteratorRange(ce->getArg(0), ce->getArg(1), env, a, lo, n)) return nullptr;
  SourceLocation loc = ce->getExprLoc();
  if (!a->type->elem()->isScalar()) fail(loc, "'std::" + name.str() + "' of non-scalar values is not supported");
  ir::Expr first = read(a, lo, loc);
  ir::Expr rest = ir::Prim::make(ir::Op::Sub, {n, ir::Const::makeInt(1)});
  return foldRange(rest, first, [&](const ir::Expr &j, const ir::Expr &best) {
    ir::Expr x = read(a, ir::Prim::make(ir::Op::Add, {lo, ir::Prim::make(ir::Op::Add, {j, ir::Const::makeInt(1)})}), loc);
    ir::Expr better = name == "max_element" ? ir::Prim::make(ir::Op::Lt, {best, x}) : ir::Prim::make(ir::Op::Lt, {x, best});
    return ir::If::make(better, x, best);
  });
}

// std::swap(x, y) of two local scalars or structs of plain values (their SSA
// values exchanged) or of two array elements (both read, then both stored).
ir::Expr Lowering::lowerSwap(const CallExpr *ce, Env &env) {
  SourceLocation loc = ce->getExprLoc();
  const Expr *x = ce->getArg(0), *y = ce->getArg(1);
  if (ArrayInfo ai; arrayInfo(x->getType(), ai, SourceLocation()) && ai.kind != ArrayInfo::Pointer)
    return lowerWholeArrayCopy(x, y, true, env, loc); // two vectors (local_arrays.cpp)
  // (numbers, or structs of plain values: their IR values are exchanged the same way)
  auto value = [&](QualType t) { return t->isScalarType() || (t->isRecordType() && !isViewStruct(t)); };
  if (!value(x->getType()) || !value(y->getType())) return nullptr;
  ir::Expr ax, ix, ay, iy;
  bool ex = elementRef(x, env, ax, ix), ey = elementRef(y, env, ay, iy);
  if (ex && ey) {
    if (!effects_) fail(loc, "'std::swap' is not supported here (use it as a statement)");
    if (!ax->is<ir::Var>() || !ay->is<ir::Var>()) fail(loc, "'std::swap' of elements of arrays of arrays is not supported");
    std::string tx = names_.fresh("t"), ty = names_.fresh("t");
    ir::Expr vx = read(ax, ix, loc), vy = read(ay, iy, loc);
    effects_->push_back({tx, vx});
    effects_->push_back({ty, vy});
    effects_->push_back({names_.fresh("_"), store(ax, ix, ir::Var::make(ty, vy->type), ir::Store::Mode::Set, loc)});
    return store(ay, iy, ir::Var::make(tx, vx->type), ir::Store::Mode::Set, loc);
  }
  if (ex || ey) fail(loc, "'std::swap' of an array element and a variable is not supported");
  std::vector<int> px, py;
  const VarDecl *rx = assignedRoot(x, px, true), *ry = assignedRoot(y, py, true);
  if (!px.empty() || !py.empty()) fail(loc, "'std::swap' of struct fields is not supported");
  if (!env.count(rx) || !env.count(ry)) fail(loc, "'std::swap' of variables that are not locals");
  if (!effects_) fail(loc, "'std::swap' is not supported here (use it as a statement)");
  ir::Expr vx = env.at(rx), vy = env.at(ry);
  if (!vx->type->isScalar() && !vx->type->isStruct()) return nullptr;
  std::string nx = names_.fresh(rx->getNameAsString()), ny = names_.fresh(ry->getNameAsString());
  effects_->push_back({nx, vy});
  effects_->push_back({ny, vx});
  env[rx] = ir::Var::make(nx, vy->type);
  env[ry] = ir::Var::make(ny, vx->type);
  return ir::Tuple::make({});
}

// C's `memcpy(dst, src, n * sizeof(double))` and `memset(dst, 0, n *
// sizeof(double))` on arrays of numbers, as C-style numerical code copies and
// clears buffers: `std::copy` of n elements, a fill with zero. The count is
// the byte count over the element's size: `E * sizeof(T)` (either order, T
// the element type) is E elements, a constant byte count (`sizeof buf`) its
// quotient; other byte counts, other values for memset and memmove
// (overlapping ranges) are refused at the call.
ir::Expr Lowering::lowerMemCall(const CallExpr *ce, const FunctionDecl *fd, Env &env) {
  unsigned id = fd->getBuiltinID();
  bool copy = id == Builtin::BImemcpy || id == Builtin::BI__builtin_memcpy;
  bool clear = id == Builtin::BImemset || id == Builtin::BI__builtin_memset;
  bool move = id == Builtin::BImemmove || id == Builtin::BI__builtin_memmove;
  if (!copy && !clear && !move) return nullptr;
  SourceLocation loc = ce->getExprLoc();
  std::string name = fd->getNameAsString();
  if (move) fail(loc, "'" + name + "' is not supported (ranges that may overlap: write the loop, or 'std::copy')");
  if (ce->getNumArgs() != 3) fail(loc, "'" + name + "' with other than three arguments");
  const Expr *dstE = ce->getArg(0)->IgnoreParenImpCasts();
  ArrayInfo ai;
  if (!arrayInfo(dstE->getType(), ai, SourceLocation()) || !ai.elem->isArithmeticType())
    fail(dstE->getExprLoc(), "'" + name + "' of this destination is not supported (only arrays of numbers)");
  QualType et = ai.elem.getUnqualifiedType();
  const int64_t elemBytes = int64_t(ctx_.getTypeSizeInChars(et).getQuantity());
  // the element count
  const Expr *bytes = ce->getArg(2)->IgnoreParenImpCasts();
  auto isElemSize = [&](const Expr *e) {
    const auto *s = dyn_cast<UnaryExprOrTypeTraitExpr>(e->IgnoreParenImpCasts());
    return s && s->getKind() == UETT_SizeOf && ctx_.hasSameUnqualifiedType(s->getTypeOfArgument(), et);
  };
  ir::Expr n;
  if (const auto *b = dyn_cast<BinaryOperator>(bytes); b && b->getOpcode() == BO_Mul && isElemSize(b->getRHS()))
    n = lowerIndexExpr(b->getLHS(), env);
  else if (b && b->getOpcode() == BO_Mul && isElemSize(b->getLHS()))
    n = lowerIndexExpr(b->getRHS(), env);
  else if (Expr::EvalResult r; bytes->EvaluateAsInt(r, ctx_) && r.Val.getInt().getSExtValue() % elemBytes == 0)
    n = ir::Const::makeInt(r.Val.getInt().getSExtValue() / elemBytes);
  else
    fail(ce->getArg(2)->getExprLoc(), "the byte count of '" + name + "' is not supported: write it as 'n * sizeof(" +
                                          typeStr(et) + ")'");
  ir::Expr d, dlo;
  if (!iteratorRef(dstE, env, d, dlo)) fail(dstE->getExprLoc(), "the destination of '" + name + "' is not an array");
  if (clear) {
    Expr::EvalResult v;
    if (!ce->getArg(1)->EvaluateAsInt(v, ctx_) || v.Val.getInt() != 0)
      fail(ce->getArg(1)->getExprLoc(), "'" + name + "' with a value other than 0 is not supported (use 'std::fill')");
    return fillElements(d, dlo, n, ir::Const::zero(d->type->elem()), loc);
  }
  const Expr *srcE = ce->getArg(1)->IgnoreParenImpCasts();
  ir::Expr a, lo;
  if (!iteratorRef(srcE, env, a, lo)) fail(srcE->getExprLoc(), "the source of '" + name + "' is not an array");
  if (!ir::sameType(a->type, d->type)) fail(loc, "'" + name + "' between arrays of different element types is not supported");
  return copyElements(a, lo, d, dlo, n, loc);
}

} // namespace unfad::frontend
