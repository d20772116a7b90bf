// Local arrays: `double a[3] = {...}`, `std::array<double, N> a{}`,
// `std::vector<double> v(n[, value])`, copies, initializer lists, and local
// arrays of arrays of constant or constructor-given shape, which are flat
// buffers (Lowering::Flat). Each is a NewArray (zero-filled) followed by the
// stores of its initial elements.
#include "lowering.h"

#include <clang/AST/DeclCXX.h>
#include <llvm/ADT/STLExtras.h>
#include "unfad/ir/equal.h"

namespace unfad::frontend {

// Whether a default-constructed `t` is zero (or `t` has no default constructor): classes.cpp.
bool zeroDefault(clang::QualType t, clang::ASTContext &ctx);

using namespace clang;

namespace {

// The arguments a constructor call spells out (not the defaulted ones).
std::vector<const Expr *> writtenArgs(const CXXConstructExpr *ce) {
  std::vector<const Expr *> args;
  if (ce)
    for (const Expr *a : ce->arguments())
      if (!isa<CXXDefaultArgExpr>(a)) args.push_back(a);
  return args;
}

// `std::vector<T>(len[, v])` as the row argument, under its temporaries.
const CXXConstructExpr *rowConstructor(const Expr *row) {
  row = row->IgnoreImplicit();
  while (true) {
    if (const auto *m = dyn_cast<MaterializeTemporaryExpr>(row)) row = m->getSubExpr()->IgnoreImplicit();
    else if (const auto *b = dyn_cast<CXXBindTemporaryExpr>(row)) row = b->getSubExpr()->IgnoreImplicit();
    else if (const auto *fc = dyn_cast<CXXFunctionalCastExpr>(row)) row = fc->getSubExpr()->IgnoreImplicit();
    else break;
  }
  return dyn_cast<CXXConstructExpr>(row);
}

} // namespace

ir::Expr Lowering::lowerLocalArray(const VarDecl *vd, const ArrayInfo &ai, Env &env, const Tail &k) {
  if (ai.kind == ArrayInfo::Pointer) return lowerPointerLocal(vd, env, k);
  SourceLocation loc = vd->getLocation();
  if (const Expr *c = hoistedArray(vd->getInit())) { // `auto y = f(x);`: the array f returned (returned_arrays.cpp)
    const ir::Expr result = returnedArrays_.at(cast<CallExpr>(c));
    ArrayInfo inner;
    if (ai.kind == ArrayInfo::Vector && growingVector(vd) && !arrayInfo(ai.elem, inner, SourceLocation(), 1)) {
      LocalArrayInit start; // (the result copied into a buffer with room to grow)
      start.copyFrom = result;
      start.size = ir::Size::make(result);
      return bindGrowingVector(vd, result->type->elem(), start, env, k);
    }
    if (ai.kind == ArrayInfo::Vector && growingVector(vd))
      fail(loc, "a std::vector of rows initialised by a call cannot grow ('push_back', 'resize' on '" +
                    vd->getNameAsString() + "'; copy it into a new vector first)");
    env[vd] = result;
    if (std::optional<Flat> table = fixedTable(vd->getType())) flatStride_[vd] = *table; // a Mat3
    return k(env);
  }
  if (const Expr *from = vd->getInit() ? copySource(vd->getInit()) : nullptr;
      from && from != vd->getInit()->IgnoreImplicit() && ai.elem->isArithmeticType()) {
    Binds pre; // `std::vector<double> h = s.x;` of passive data: a copy of the copy it reads
    ir::Expr copy;
    {
      EffectScope scope(*this, &pre);
      copy = passiveArrayCopy(from, env);
    }
    if (copy) {
      LocalArrayInit start;
      start.copyFrom = copy;
      start.size = localLengths_.at(copy->as<ir::Var>()->name);
      const ir::TypeP et = copy->type->elem();
      return wrap(pre, ai.kind == ArrayInfo::Vector && growingVector(vd) ? bindGrowingVector(vd, et, start, env, k)
                                                                        : bindLocalArray(vd, et, false, start, env, k));
    }
  }
  std::string spelled = "'" + typeStr(vd->getType()) + "'";
  ArrayInfo inner;
  bool nested = arrayInfo(ai.elem, inner, SourceLocation(), 1);
  ir::TypeP et = typeOf(nested ? inner.elem : ai.elem, loc);
  const Expr *init = vd->getInit();
  if (init)
    if (const auto *c = dyn_cast<ExprWithCleanups>(init)) init = c->getSubExpr();
  LocalArrayInit start;
  if (nested && ai.kind == ArrayInfo::Vector && growingVector(vd)) return lowerGrowingTable(vd, inner, et, init, env, k);
  if (nested) init = localArrayShape(vd, ai, inner, et, init, env, start);
  else if (ai.size >= 0) start.size = ir::Const::makeInt(ai.size);
  if (!init) {
    if (!start.size) start.size = ir::Const::makeInt(0);
  } else if (const auto *il = dyn_cast<InitListExpr>(init)) {
    flattenInitList(il, nested, inner, et, spelled, env, start);
  } else if (const auto *ce = dyn_cast<CXXConstructExpr>(init)) {
    localArrayConstructor(vd, ai, nested, inner, et, ce, env, start);
  } else if (const auto *each = dyn_cast<ArrayInitLoopExpr>(init); each && !nested) {
    // `auto [u, w] = c;` of a C array: the hidden object is a copy of it
    start.copyFrom = lowerArrayRef(each->getCommonExpr()->getSourceExpr(), env);
    if (!ir::sameType(start.copyFrom->type, ir::Type::array(et))) fail(loc, "copy between arrays of different types");
  } else {
    fail(loc, "this initializer of " + spelled + " is not supported yet");
  }
  if (!start.size) start.size = ir::Const::makeInt(int64_t(start.elems.size()));
  if (ai.kind == ArrayInfo::Vector && growingVector(vd)) return bindGrowingVector(vd, et, start, env, k);
  return bindLocalArray(vd, et, nested, start, env, k);
}

// A runtime dimension of a local array of arrays: bound to a let named
// after the array, so the size expression is not repeated.
ir::Expr Lowering::shapeDimension(const VarDecl *vd, const std::string &hint, ir::Expr e, LocalArrayInit &out) {
  if (e->is<ir::Const>()) return e;
  std::string n = names_.fresh(vd->getNameAsString() + "_" + hint);
  out.shape.push_back({n, e});
  return ir::Var::make(n, ir::Type::i64());
}

// The fill value `v` of `std::vector<T> v(n, v)`; null when it is zero (the
// new array is zero-filled already).
ir::Expr Lowering::fillValue(const Expr *value, const ir::TypeP &et, Env &env) {
  ir::Expr fill = convert(lowerExpr(value, env), et);
  if (const auto *c = fill->as<ir::Const>(); c && c->isZero()) return nullptr;
  return fill;
}

// The shape of a local array of arrays: rows of a constant length, or
// `std::vector<std::vector<T>> m(rows, std::vector<T>(len[, v]))`. Returns
// the initializer still to lower (null when the shape consumed it).
const Expr *Lowering::localArrayShape(const VarDecl *vd, const ArrayInfo &ai, const ArrayInfo &inner,
                                      const ir::TypeP &et, const Expr *init, Env &env, LocalArrayInit &out) {
  SourceLocation loc = vd->getLocation();
  std::string spelled = "'" + typeStr(vd->getType()) + "'";
  Flat &flat = out.flat;
  const auto *ce = init ? dyn_cast<CXXConstructExpr>(init) : nullptr;
  std::vector<const Expr *> args = writtenArgs(ce);
  if (ai.size >= 0) flat.rows = ir::Const::makeInt(ai.size);
  else if (ai.kind == ArrayInfo::Vector && ce && !args.empty() && args.size() <= 2 && args[0]->getType()->isIntegerType())
    flat.rows = shapeDimension(vd, "rows", lowerIndexExpr(args[0], env), out);
  if (inner.size >= 0) {
    flat.stride = ir::Const::makeInt(inner.size);
    if (args.size() == 2) fail(loc, "this constructor of " + spelled + " is not supported yet (give the number of rows)");
  } else if (inner.kind == ArrayInfo::Vector && args.size() == 2) {
    const CXXConstructExpr *rc = rowConstructor(args[1]);
    std::vector<const Expr *> rargs = writtenArgs(rc);
    if (rc && !rargs.empty() && rargs.size() <= 2 && rargs[0]->getType()->isIntegerType()) {
      flat.stride = shapeDimension(vd, "cols", lowerIndexExpr(rargs[0], env), out);
      if (rargs.size() == 2) out.fill = fillValue(rargs[1], et, env);
    }
  }
  // `std::vector<std::array<double, 3>> q = pts;` of a parameter held as
  // rows: as many rows as it has, copied row by row (below)
  ir::Expr sourceRows;
  const bool copied = ce && ce->getConstructor()->isCopyOrMoveConstructor();
  if (!flat.rows && copied && ai.kind == ArrayInfo::Vector && inner.size >= 0 && !flatVar(ce->getArg(0)))
    if (ir::Expr rows = lowerArrayRef(ce->getArg(0), env); rows->type->elem()->isArray()) {
      sourceRows = rows;
      flat.rows = shapeDimension(vd, "rows", arraySize(ce->getArg(0), rows, loc, env), out);
    }
  if (!flat.rows || !flat.stride)
    fail(loc, "local arrays of arrays are only supported with constant sizes or as 'std::vector<std::vector<T>> m(rows, "
              "std::vector<T>(cols))' (" + spelled + "; or use a flat std::vector and 'a[i * n + j]')");
  out.size = ir::Prim::make(ir::Op::Mul, {flat.rows, flat.stride});
  if (flat.rows->is<ir::Const>() && flat.stride->is<ir::Const>())
    out.size = ir::Const::makeInt(flat.rows->as<ir::Const>()->ivalue * flat.stride->as<ir::Const>()->ivalue);
  if (sourceRows) {
    out.copyRowsFrom = sourceRows;
    return nullptr;
  }
  if (copied) {
    // `Mat3 C = R;` of a table held flat: a copy of its buffer
    if (ir::Expr from = fixedTable(vd->getType()) ? flatTableRef(ce->getArg(0), env) : nullptr) {
      out.copyFrom = from;
      return nullptr;
    }
    // `Mat3 C = M;` of a parameter (held as rows): row by row
    if (fixedTable(vd->getType()) && fixedTable(ce->getArg(0)->getType())) {
      ir::Expr rows = lowerArrayRef(ce->getArg(0), env);
      if (rows->type->elem()->isArray()) {
        out.copyRowsFrom = rows;
        return nullptr;
      }
    }
    fail(loc, "copies of arrays of arrays are only supported between local tables of a fixed size ('std::array<std::array<T, "
              "N>, M>')");
  }
  if (init && !isa<InitListExpr>(init) && !ce) fail(loc, "this initializer of " + spelled + " is not supported yet");
  return ce ? nullptr : init;
}

// The elements of an initializer list into out.elems; `rows`: a list of
// rows (lists or zeros) of a local array of arrays.
void Lowering::flattenInitList(const InitListExpr *il, bool rows, const ArrayInfo &inner, const ir::TypeP &et,
                               const std::string &spelled, Env &env, LocalArrayInit &out) {
  if (il->getType()->isRecordType()) { // std::array: one member, the C array
    if (il->getNumInits() == 0 || isa<ImplicitValueInitExpr>(il->getInit(0))) return;
    const auto *sub = dyn_cast<InitListExpr>(il->getInit(0)->IgnoreImplicit());
    if (!sub) fail(il->getBeginLoc(), "this initializer of " + spelled + " is not supported yet");
    return flattenInitList(sub, rows, inner, et, spelled, env, out);
  }
  for (unsigned i = 0; i < il->getNumInits(); ++i) {
    const Expr *x = il->getInit(i);
    if (rows) { // a row: its own list, or zeros
      size_t before = out.elems.size();
      if (const auto *sub = dyn_cast<InitListExpr>(x->IgnoreImplicit())) flattenInitList(sub, false, inner, et, spelled, env, out);
      else if (!isa<ImplicitValueInitExpr>(x)) fail(x->getBeginLoc(), "this initializer of " + spelled + " is not supported yet");
      out.elems.resize(before + size_t(inner.size));
      continue;
    }
    if (isa<ImplicitValueInitExpr>(x)) out.elems.push_back(nullptr);
    else out.elems.push_back(convert(lowerExpr(x, env), et));
  }
}

// `std::vector<T> v(n[, value])`, copies (of a vector, of a range
// `v(first, last)`), `std::vector<T> v{...}`.
void Lowering::localArrayConstructor(const VarDecl *vd, const ArrayInfo &ai, bool nested, const ArrayInfo &inner,
                                     const ir::TypeP &et, const CXXConstructExpr *ce, Env &env, LocalArrayInit &out) {
  SourceLocation loc = vd->getLocation();
  std::string spelled = "'" + typeStr(vd->getType()) + "'";
  std::vector<const Expr *> args = writtenArgs(ce);
  const Expr *first = args.empty() ? nullptr : args[0]->IgnoreImplicit();
  if (args.empty()) {
    if (!out.size) out.size = ir::Const::makeInt(0);
  } else if (ce->getConstructor()->isCopyOrMoveConstructor()) {
    // `c_(std::move(c))` of a by-value parameter `c` (a sink): a copy of the
    // parameter's array, which nothing reads after the move
    const Expr *from = args[0];
    if (!nested)
      if (std::vector<ir::Expr> elems = memberArrayElements(from, env); !elems.empty()) { // `q = p_` of a member array
        for (ir::Expr &x : elems) x = convert(x, et);
        out.elems = elems;
        out.size = ir::Const::makeInt(int64_t(elems.size()));
        return;
      }
    if (const Expr *src = copySource(args[0]); src != args[0]->IgnoreImplicit())
      if (const auto *dr = dyn_cast<DeclRefExpr>(src))
        if (const auto *pd = dyn_cast<ParmVarDecl>(dr->getDecl()); pd && byValueArrayParam(pd)) from = src;
    out.copyFrom = lowerArrayRef(from, env);
    if (nested || !ir::sameType(out.copyFrom->type, ir::Type::array(et)))
      fail(loc, nested ? "copies of arrays of arrays are not supported yet" : "copy between arrays of different types");
    if (!out.size) out.size = arraySize(from, out.copyFrom, loc, env);
  } else if (const auto *sl = dyn_cast<CXXStdInitializerListExpr>(first)) {
    const auto *il = dyn_cast<InitListExpr>(sl->getSubExpr()->IgnoreImplicit());
    if (!il) fail(loc, "this initializer of " + spelled + " is not supported yet");
    flattenInitList(il, nested, inner, et, spelled, env, out);
    out.size = ir::Const::makeInt(int64_t(out.elems.size()));
  } else if (ai.kind == ArrayInfo::Vector && args.size() <= 2 && args[0]->getType()->isIntegerType() &&
             (args.size() == 1 || ce->getConstructor()->getParamDecl(1)->getType().getNonReferenceType()
                                      .getUnqualifiedType().getCanonicalType() == ai.elem.getCanonicalType())) {
    out.size = lowerIndexExpr(args[0], env);
    if (args.size() == 2) out.fill = fillValue(args[1], et, env);
  } else if (ir::Expr array, lo, n; ai.kind == ArrayInfo::Vector && !nested && args.size() == 2 &&
                                    iteratorRange(args[0], args[1], env, array, lo, n)) {
    // std::vector<T> v(first, last): a copy of the range
    if (!ir::sameType(array->type, ir::Type::array(et))) fail(loc, "copy between arrays of different types");
    out.copyFrom = ir::View::make(array, lo);
    out.size = n;
  } else {
    fail(loc, "this constructor of " + spelled + " is not supported yet (only a size, a size and a value, a copy, a range, or a list)");
  }
}

// let v = NewArray(size) in (initial stores) in k
ir::Expr Lowering::bindLocalArray(const VarDecl *vd, const ir::TypeP &et, bool nested, LocalArrayInit &start, Env &env,
                                  const Tail &k) {
  SourceLocation loc = vd->getLocation();
  // Its elements start as their default constructor makes them: an
  // aggregate's default member initializers fill it.
  if (ArrayInfo ai; !start.fill && !start.copyFrom && et->isStruct() && arrayInfo(vd->getType(), ai, SourceLocation()) &&
                    !zeroDefault(ai.elem, ctx_)) {
    start.fill = aggregateDefault(ai.elem, loc, env);
    if (!start.fill)
      fail(loc, "local arrays of '" + typeStr(ai.elem) + "', whose default constructor sets non-zero values, are not "
                "supported (give a fill value: 'v(n, " + typeStr(ai.elem) + "{...})')");
  }
  Binds binds;
  ir::Expr fill = start.fill;
  if (fill && !fill->is<ir::Const>()) {
    std::string fn = names_.fresh(vd->getNameAsString() + "_fill");
    binds.push_back({fn, fill});
    fill = ir::Var::make(fn, fill->type);
  }
  binds.insert(binds.begin(), start.shape.begin(), start.shape.end());
  std::string n = names_.fresh(arrayNameHints_.count(vd) ? arrayNameHints_.at(vd)
                                                         : vd->getName().empty() ? "a" : vd->getNameAsString());
  arrNames_[n] = vd->getNameAsString();
  ir::Expr arr = ir::Var::make(n, ir::Type::array(et));
  binds.push_back({n, ir::NewArray::make(start.size, et)});
  using M = ir::Store::Mode;
  if (fill)
    binds.push_back({names_.fresh("_"), effectLoop(start.size, [&](const ir::Expr &j) { return store(arr, j, fill, M::Set, loc); })});
  if (const ir::Expr &from = start.copyFrom)
    binds.push_back({names_.fresh("_"), effectLoop(start.size, [&](const ir::Expr &j) {
                       return store(arr, j, read(from, j, loc), M::Set, loc);
                     })});
  if (const ir::Expr &from = start.copyRowsFrom) // (a table: start.flat's shape)
    binds.push_back({names_.fresh("_"), effectLoop(start.flat.rows, [&](const ir::Expr &i) {
                       return effectLoop(start.flat.stride, [&](const ir::Expr &j) {
                         ir::Expr at = ir::Prim::make(ir::Op::Add, {ir::Prim::make(ir::Op::Mul, {i, start.flat.stride}), j});
                         return store(arr, at, read(read(from, i, loc), j, loc), M::Set, loc);
                       });
                     })});
  for (size_t i = 0; i < start.elems.size(); ++i) {
    const ir::Expr &elem = start.elems[i];
    if (!elem) continue;
    if (const auto *c = elem->as<ir::Const>(); c && c->isZero()) continue;
    binds.push_back({names_.fresh("_"), store(arr, ir::Const::makeInt(int64_t(i)), elem, M::Set, loc)});
  }
  env[vd] = arr;
  if (nested) flatStride_[vd] = start.flat;
  else localLengths_[n] = start.size;
  return wrap(binds, k(env));
}

// The length of array `a` in terms the lowering can compare: a local's
// length at its declaration, followed through the locals it names
// (`next(y.size())` where `y` is a copy of `x` has `x`'s length).
ir::Expr Lowering::knownLength(const ir::Expr &a, int depth) {
  ir::Expr len = ir::Size::make(a);
  if (const auto *v = a->as<ir::Var>())
    if (auto it = localLengths_.find(v->name); it != localLengths_.end()) len = it->second;
  return depth > 8 ? len : comparableLength(len, depth);
}

ir::Expr Lowering::comparableLength(const ir::Expr &e, int depth) {
  if (const auto *s = e->as<ir::Size>()) {
    const auto *v = s->array->as<ir::Var>();
    return v && localLengths_.count(v->name) ? knownLength(s->array, depth + 1) : e;
  }
  if (const auto *p = e->as<ir::Prim>()) {
    if (p->op == ir::Op::Cast && p->args[0]->type->isInt() && e->type->isInt())
      return comparableLength(p->args[0], depth); // (a length is an integer whatever its C++ type)
    std::vector<ir::Expr> args;
    for (const ir::Expr &x : p->args) args.push_back(comparableLength(x, depth));
    return p->op == ir::Op::Cast ? ir::Prim::makeCast(args[0], e->type) : ir::Prim::make(p->op, args);
  }
  return e;
}

// `y = next;` and `a.swap(b)` / `std::swap(a, b)` of whole arrays (local
// std::vectors, std::arrays) whose lengths are the same by construction
// (`std::vector<double> next(y.size())`): an element-wise copy, an
// element-wise exchange. (A vector's swap exchanges buffers in O(1); the
// exchange is O(n), within the loop that filled the buffer.) Arrays whose
// lengths may differ are refused: the assignment would resize.
ir::Expr Lowering::lowerWholeArrayCopy(const Expr *dst, const Expr *src, bool exchange, Env &env, SourceLocation loc) {
  const char *what = exchange ? "swapping whole arrays" : "assignment of whole arrays";
  // fixed-size tables held flat (a Mat3): the same shape by their type
  if (ir::Expr fd = flatTableRef(dst, env)) {
    ir::Expr fs = flatTableRef(src, env), n = tableLength(*fixedTable(dst->getType()));
    if (!fs || !ir::alphaEqual(n, tableLength(*fixedTable(src->getType()))))
      fail(loc, std::string(what) + " of a local table is only supported with another local table of its shape");
    if (!exchange) return copyElements(fs, nullptr, fd, nullptr, n, loc);
    return exchangeElements(fd, fs, n, loc);
  }
  ArrayInfo di, si;
  if (!arrayInfo(dst->getType(), di, SourceLocation()) || !arrayInfo(src->getType(), si, SourceLocation()) ||
      di.kind == ArrayInfo::Pointer || si.kind == ArrayInfo::Pointer)
    fail(loc, std::string(what) + " is only supported between std::vectors and std::arrays");
  ir::Expr d = lowerArrayRef(dst, env), s = lowerArrayRef(src, env);
  if (!ir::sameType(d->type, s->type) || d->type->elem()->isArray())
    fail(loc, std::string(what) + " of different element types, or of arrays of arrays, is not supported");
  if (growingLength(dst) || growingLength(src) || !ir::alphaEqual(knownLength(d), knownLength(s)))
    fail(loc, std::string(what) + " is only supported where both have the same length by construction (declare one "
                                  "with the other's size: 'std::vector<double> next(y.size());')");
  if (!exchange)
    return copyElements(s, nullptr, d, nullptr, knownLength(d), loc);
  return exchangeElements(d, s, knownLength(d), loc);
}

ir::Expr Lowering::exchangeElements(const ir::Expr &d, const ir::Expr &s, const ir::Expr &n, SourceLocation loc) {
  using M = ir::Store::Mode;
  return effectLoop(n, [&](const ir::Expr &j) {
    std::string t = names_.fresh("t");
    ir::Expr kept = read(d, j, loc);
    return ir::Let::make(t, kept,
                         ir::Let::make(names_.fresh("_"), store(d, j, read(s, j, loc), M::Set, loc),
                                       store(s, j, ir::Var::make(t, kept->type), M::Set, loc)));
  });
}

// The flat buffer of a fixed-size table `e` names (a local Mat3, a helper's
// parameter bound to one), or null.
ir::Expr Lowering::flatTableRef(const Expr *e, Env &env) {
  const VarDecl *vd = flatTableVar(e);
  return vd && fixedTable(vd->getType()) ? lookupVar(vd, env, e->getExprLoc()) : nullptr;
}

ir::Expr Lowering::tableLength(const Flat &f) {
  return ir::Const::makeInt(f.rows->as<ir::Const>()->ivalue * f.stride->as<ir::Const>()->ivalue);
}

// `a = {...}`: every value first (they may read a: `p = {p[1], p[0]}`),
// then every element (null: zero).
ir::Expr Lowering::assignElements(const ir::Expr &a, const std::vector<ir::Expr> &elems, SourceLocation loc,
                                  int64_t cols) {
  // (with `cols`, a table held as rows: element k is a[k / cols][k % cols])
  const ir::TypeP et = cols ? a->type->elem()->elem() : a->type->elem();
  Binds values, stores;
  for (size_t k = 0; k < elems.size(); ++k) {
    ir::Expr v = elems[k] ? elems[k] : ir::Const::zero(et);
    if (!v->is<ir::Const>()) {
      values.push_back({names_.fresh("braced"), v});
      v = ir::Var::make(values.back().first, et);
    }
    int64_t at = int64_t(k);
    ir::Expr row = cols ? read(a, ir::Const::makeInt(at / cols), loc) : a;
    stores.push_back({names_.fresh("_"), store(row, ir::Const::makeInt(cols ? at % cols : at), v, ir::Store::Mode::Set, loc)});
  }
  values.insert(values.end(), stores.begin(), stores.end());
  return wrap(values, ir::Tuple::make({}));
}

// The elements braces give a fixed-size table, row after row (null: zero).
std::vector<ir::Expr> Lowering::tableElements(const Expr *table, const InitListExpr *il, const ir::TypeP &et, Env &env) {
  ArrayInfo outer, inner;
  arrayInfo(table->getType(), outer, SourceLocation());
  arrayInfo(outer.elem, inner, SourceLocation(), 1);
  LocalArrayInit values;
  flattenInitList(il, true, inner, et, "'" + typeStr(table->getType()) + "'", env, values);
  values.elems.resize(size_t(tableLength(*fixedTable(table->getType()))->as<ir::Const>()->ivalue));
  return values.elems;
}

} // namespace unfad::frontend
