// Arrays: element reads and stores (`a[i]`, `*p`, `v.at(i)`, `a[i].f += v`),
// the buffers array expressions denote, their sizes, and the flattened local
// arrays of arrays (local_arrays.cpp declares those).
#include "lowering.h"
#include "unfad/ir/traverse.h"

#include <algorithm>

#include <clang/AST/DeclCXX.h>

namespace unfad::frontend {

using namespace clang;

ir::Expr Lowering::read(const ir::Expr &array, const ir::Expr &index, SourceLocation loc) {
  ir::Expr r = ir::Index::make(array, index);
  locs_[r.get()] = loc;
  return r;
}

ir::Expr Lowering::store(const ir::Expr &array, const ir::Expr &index, const ir::Expr &value, ir::Store::Mode m,
                         SourceLocation loc, std::vector<int> path) {
  ir::Expr r = ir::Store::make(array, index, value, m, std::move(path));
  locs_[r.get()] = loc;
  return r;
}

ir::Expr Lowering::arraySize(const Expr *obj, const ir::Expr &array, SourceLocation loc, Env &env) {
  if (const VarDecl *len = growingLength(obj)) return env.at(len); // its length, not its buffer's
  if (const auto *d = dyn_cast<DeclRefExpr>(obj->IgnoreParenImpCasts())) // out.resize(n) was run (output_vectors.cpp)
    if (auto it = resizedLength_.find(dyn_cast<VarDecl>(d->getDecl())); it != resizedLength_.end()) return it->second;
  if (ir::Expr row = raggedRowLength(obj, env)) return row; // (ragged_tables.cpp)
  if (ir::Expr row = flatRowLength(obj)) return row; // a row of a table held flat: not the rest of its buffer
  ArrayInfo ai;
  if (arrayInfo(obj->getType(), ai, SourceLocation()) && ai.size >= 0) return ir::Const::makeInt(ai.size);
  if (ai.kind != ArrayInfo::Vector) fail(loc, "the length of this array is not known (pass it as a parameter)");
  return ir::Size::make(array);
}

ir::Expr Lowering::effect(const ir::Expr &e, const std::function<ir::Expr()> &k) {
  std::string n = names_.fresh("_");
  ir::Expr body = k();
  return ir::Let::make(n, e, body);
}

ir::Expr Lowering::effectLoop(const ir::Expr &n, const std::function<ir::Expr(const ir::Expr &)> &body) {
  std::string j = names_.fresh("i"), st = names_.fresh("state");
  ir::Expr b = body(ir::Var::make(j, ir::Type::i64()));
  std::string u = names_.fresh("_");
  return ir::Fold::make(ir::Const::makeInt(0), n, ir::Tuple::make({}), j, st,
                        ir::Let::make(u, b, ir::Tuple::make({})));
}


// dst[dlo + j] = src[lo + j] for j < n (a null offset is 0): the copy loop of
// std::copy, memcpy and whole-array assignment.
ir::Expr Lowering::copyElements(const ir::Expr &src, const ir::Expr &lo, const ir::Expr &dst, const ir::Expr &dlo,
                                const ir::Expr &n, SourceLocation loc) {
  auto at = [](const ir::Expr &o, const ir::Expr &j) { return o ? ir::Prim::make(ir::Op::Add, {o, j}) : j; };
  return effectLoop(n, [&](const ir::Expr &j) { return store(dst, at(dlo, j), read(src, at(lo, j), loc), ir::Store::Mode::Set, loc); });
}

// dst[dlo + j] = v for j < n (a null offset is 0): std::fill, std::fill_n,
// std::array's fill and memset.
ir::Expr Lowering::fillElements(const ir::Expr &dst, const ir::Expr &dlo, const ir::Expr &n, const ir::Expr &v,
                                SourceLocation loc) {
  return effectLoop(n, [&](const ir::Expr &j) {
    return store(dst, dlo ? ir::Prim::make(ir::Op::Add, {dlo, j}) : j, v, ir::Store::Mode::Set, loc);
  });
}

const InitListExpr *bracedElements(const Expr *e) {
  while (true) {
    e = e->IgnoreImplicit();
    if (const auto *m = dyn_cast<MaterializeTemporaryExpr>(e)) e = m->getSubExpr();
    else if (const auto *b = dyn_cast<CXXBindTemporaryExpr>(e)) e = b->getSubExpr();
    else if (const auto *f = dyn_cast<CXXFunctionalCastExpr>(e)) e = f->getSubExpr();
    else if (const auto *l = dyn_cast<CXXStdInitializerListExpr>(e)) e = l->getSubExpr();
    else if (const auto *c = dyn_cast<CXXConstructExpr>(e); c && c->getNumArgs() >= 1 &&
                                                          isa<CXXStdInitializerListExpr>(c->getArg(0)->IgnoreImplicit()))
      e = c->getArg(0); // (std::vector's constructor from a std::initializer_list)
    else return dyn_cast<InitListExpr>(e);
  }
}

// A temporary std::vector or std::array made from braces where an array is
// expected (an argument `{0.0, 1.0, 2.0}` of a `const std::vector<double>&`
// parameter): a new local array holding them, made in the statement's
// effects. Null when `x` is no such temporary.
ir::Expr Lowering::listedArray(const Expr *x, Env &env) {
  SourceLocation loc = x->getExprLoc();
  ArrayInfo ai;
  if (!arrayInfo(x->getType(), ai, SourceLocation()) || ai.kind == ArrayInfo::Pointer) return nullptr;
  const InitListExpr *il = bracedElements(x);
  if (!il) return nullptr;
  if (il->getNumInits() == 1 && ai.kind == ArrayInfo::StdArray) // std::array's braces hold its C array's
    if (const auto *in = dyn_cast<InitListExpr>(il->getInit(0)->IgnoreImplicit())) il = in;
  ArrayInfo inner;
  if (arrayInfo(ai.elem, inner, SourceLocation(), 1)) return nullptr; // (rows: not here)
  if (!effects_) fail(loc, "an array made from braces here is not supported (declare it as a local first)");
  const ir::TypeP et = typeOf(ai.elem.getUnqualifiedType(), loc);
  const int64_t n = ai.size >= 0 ? ai.size : int64_t(il->getNumInits());
  std::vector<ir::Expr> elems;
  for (const Expr *e : il->inits()) elems.push_back(convert(lowerExpr(e, env), et));
  const std::string name = names_.fresh("listed");
  const ir::Expr arr = ir::Var::make(name, ir::Type::array(et));
  effects_->push_back({name, ir::NewArray::make(ir::Const::makeInt(n), et)});
  effects_->push_back({names_.fresh("_"), assignElements(arr, elems, loc)});
  localLengths_[name] = ir::Const::makeInt(n);
  return arr;
}

ir::Expr Lowering::lowerArrayRef(const Expr *e, Env &env) {
  SourceLocation loc = e->getExprLoc();
  const Expr *x = e->IgnoreParenImpCasts();
  if (const auto *m = dyn_cast<MaterializeTemporaryExpr>(x)) x = m->getSubExpr()->IgnoreParenImpCasts();
  if (const auto *b = dyn_cast<CXXBindTemporaryExpr>(x)) x = b->getSubExpr()->IgnoreParenImpCasts(); // f(x) returning a vector
  if (const Expr *c = hoistedArray(x)) return returnedArrays_.at(cast<CallExpr>(c)); // returned_arrays.cpp
  if (ir::Expr it = lowerIteratorRef(x, env)) return it; // iterators.cpp
  if (const auto *oc = dyn_cast<CXXOperatorCallExpr>(x); oc && oc->getOperator() == OO_Arrow && oc->getNumArgs() == 1 &&
                                                         iteratorKind(oc->getArg(0)->getType()) != IteratorKind::None)
    return lowerArrayRef(oc->getArg(0), env); // it->f
  if (ir::Expr a, st; flatRow(x, env, a, st)) return ir::View::make(a, st); // a row of a local table: a view into it
  if (ir::Expr copy = passiveArrayCopy(x, env)) return copy; // `s.x` of passive data (passive_data.cpp)
  if (ir::Expr p = viewElementPointer(x, env)) return p; // `steps[t]` of a vector of pointers
  if (const auto *m = dyn_cast<MemberExpr>(x)) {
    if (ir::Expr leaf = viewMember(m, env)) return leaf; // `s.w` of a struct of views
    if (isMemberArrayBase(m)) lowerMember(m, env); // (member_arrays.cpp: an error)
  }
  if (const auto *c = dyn_cast<CallExpr>(x); c && c->getDirectCallee() && c->getType()->isPointerType() &&
                                             inlinedHelper(c->getDirectCallee()))
    return lowerCall(c, env); // a helper returning a pointer
  if (const auto *d = dyn_cast<DeclRefExpr>(x)) {
    if (const auto *b = dyn_cast<BindingDecl>(d->getDecl()); b && b->getBinding() && x->getType()->isPointerType())
      return lowerArrayRef(b->getBinding(), env); // a pointer of `auto [lo, hi] = std::minmax_element(...)`
    if (const auto *vd = dyn_cast<VarDecl>(d->getDecl()); vd && flatStride_.count(vd))
      fail(loc, "local arrays of arrays can only be indexed ('" + vd->getNameAsString() + "[i][j]'), not used as arrays yet");
    if (const auto *vd = dyn_cast<VarDecl>(d->getDecl())) {
      ir::Expr v = lookupVar(vd, env, loc);
      if (v->type->isArray()) return v;
    }
    fail(loc, "'" + d->getDecl()->getNameAsString() + "' is not an array");
  }
  if (const auto *mc = dyn_cast<CXXMemberCallExpr>(x)) {
    ArrayInfo ai;
    if (mc->getMethodDecl() && mc->getMethodDecl()->getName() == "data" &&
        arrayInfo(mc->getObjectType(), ai, SourceLocation()))
      return lowerArrayRef(mc->getImplicitObjectArgument(), env);
  }
  // a row of an array of arrays: A[i] (an alias, not a copy)
  if (ir::Expr a, i; elementRef(x, env, a, i)) {
    if (a->type->elem()->isArray()) return read(a, i, loc);
    fail(loc, "this array element is not an array");
  }
  if (ir::Expr view = lowerPointerExpr(x, env)) return view;
  if (const auto *b = dyn_cast<BinaryOperator>(x); b && b->isAdditiveOp())
    fail(loc, "pointer arithmetic is not supported (index the array instead: 'x[i]')");
  if (const auto *u = dyn_cast<UnaryOperator>(x)) {
    if (u->isIncrementDecrementOp()) {
      if (ir::Expr view = lowerPointerIncDec(u, env)) return view;
      fail(loc, "increment or decrement of a pointer inside an expression is not supported (use a separate statement)");
    }
    if (u->getOpcode() == UO_AddrOf) fail(loc, "taking addresses is not supported (pointers are only supported as arrays)");
  }
  if (const CallExpr *c = returnedArrayCall(x))
    fail(loc, "a call of '" + c->getDirectCallee()->getNameAsString() +
                  "', which returns an array, is not supported here: it is evaluated conditionally or repeatedly (an "
                  "operand of '?:', '&&', '||', a loop condition; call it in a statement of its own before)");
  if (const auto *c = dyn_cast<CallExpr>(x); c && c->getDirectCallee())
    fail(loc, "'" + c->getDirectCallee()->getNameAsString() +
                  "' returns an array or a pointer, which is not supported (write into an output parameter instead)");
  if (ir::Expr listed = listedArray(x, env)) return listed; // `Spline s({0.0, 1.0, 2.0}, v)`, `sum({a, b})`
  if (isa<CXXNewExpr>(x)) fail(loc, "'new' and 'delete' are not supported (use a local std::vector)");
  if (isa<CXXNullPtrLiteralExpr>(x) || x->isNullPointerConstant(ctx_, Expr::NPC_ValueDependentIsNotNull))
    fail(loc, "null pointers are not supported");
  fail(loc, "this array or pointer expression is not supported (only array variables and 'v.data()')");
}

// The flattened local array of arrays `e` names (`M`), or whose row it is (`M[i]`).
const VarDecl *Lowering::flatVar(const Expr *e) {
  if (TableRow r = tableRow(e); r.table) return r.table;
  const auto *d = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
  const auto *vd = d ? dyn_cast<VarDecl>(d->getDecl()) : nullptr;
  return vd && flatStride_.count(vd) ? vd : nullptr;
}

// `M[i]`, `M.at(i)`, `M.front()` or `M.back()` of a flattened local table M
// (else no table). Nothing is lowered.
Lowering::TableRow Lowering::tableRow(const Expr *e) {
  const Expr *x = e->IgnoreParenImpCasts();
  const Expr *base = nullptr;
  TableRow r;
  if (const auto *a = dyn_cast<ArraySubscriptExpr>(x)) base = a->getBase(), r.index = a->getIdx();
  else if (const auto *oc = dyn_cast<CXXOperatorCallExpr>(x); oc && oc->getOperator() == OO_Subscript && oc->getNumArgs() == 2)
    base = oc->getArg(0), r.index = oc->getArg(1);
  else if (const auto *mc = dyn_cast<CXXMemberCallExpr>(x); mc && mc->getMethodDecl() && mc->getMethodDecl()->getIdentifier()) {
    llvm::StringRef n = mc->getMethodDecl()->getName();
    if ((n == "at" && mc->getNumArgs() == 1) || ((n == "front" || n == "back") && mc->getNumArgs() == 0)) {
      base = mc->getImplicitObjectArgument();
      r.index = n == "at" ? mc->getArg(0) : nullptr;
      r.last = n == "back";
    }
  }
  const auto *d = base ? dyn_cast<DeclRefExpr>(base->IgnoreParenImpCasts()) : nullptr;
  const auto *vd = d ? dyn_cast<VarDecl>(d->getDecl()) : nullptr;
  if (vd && flatStride_.count(vd)) r.table = vd;
  return r;
}

// The index of the row `r` (front: 0, back: its number of rows less one).
ir::Expr Lowering::tableRowIndex(const TableRow &r, Env &env) {
  if (r.index) return lowerIndexExpr(r.index, env);
  if (!r.last) return ir::Const::makeInt(0);
  auto grown = growLen_.find(r.table);
  const ir::Expr rows = grown != growLen_.end() ? env.at(grown->second) : flatStride_.at(r.table).rows;
  return ir::Prim::make(ir::Op::Sub, {rows, ir::Const::makeInt(1)});
}

// `auto& row = init;` of an array: another name of it (a row of a table
// held flat: a view, whose length is the table's stride).
void Lowering::bindArrayAlias(const VarDecl *vd, const Expr *init, Env &env) {
  env[vd] = lowerArrayRef(init, env);
  if (ir::Expr len = raggedRowLength(init, env)) flatRowLength_[vd] = len; // (ragged_tables.cpp)
  else if (ir::Expr len = flatRowLength(init)) flatRowLength_[vd] = len;
  if (const VarDecl *len = growingLength(init)) growLen_[vd] = len; // `auto& r = v;`: v's length (growing_vectors.cpp)
}

// The length of `e` when it is a row of a table held flat (`M[i]`, or a
// name bound to one): the table's stride; else null. Nothing is lowered.
ir::Expr Lowering::flatRowLength(const Expr *e) {
  const Expr *x = e->IgnoreParenImpCasts();
  if (const auto *d = dyn_cast<DeclRefExpr>(x))
    if (auto it = flatRowLength_.find(dyn_cast<VarDecl>(d->getDecl())); it != flatRowLength_.end()) return it->second;
  const VarDecl *table = tableRow(x).table;
  return table ? flatStride_.at(table).stride : nullptr;
}

// A call giving a helper a row of a table held flat: lowered into the
// caller, where the row's length is the table's stride (a separate helper
// would see a view's length, the rest of the buffer).
bool Lowering::passesFlatRow(const CallExpr *ce, const FunctionDecl *fd) {
  const FunctionDecl *def = fd->getDefinition();
  if (!def || !def->hasBody() || ce->getNumArgs() != def->getNumParams() || isa<CXXOperatorCallExpr>(ce)) return false;
  return std::any_of(ce->arg_begin(), ce->arg_end(), [&](const Expr *arg) { return flatRowLength(arg) != nullptr; });
}

// `M[i]` where M is a flattened local array of arrays: M's flat buffer and
// the row's first element, i * stride.
bool Lowering::flatRow(const Expr *e, Env &env, ir::Expr &array, ir::Expr &start) {
  const TableRow r = tableRow(e);
  if (!r.table) return false;
  array = lookupVar(r.table, env, e->getExprLoc());
  start = ir::Prim::make(ir::Op::Mul, {tableRowIndex(r, env), flatStride_.at(r.table).stride});
  return true;
}

// `v[i]` of a std::vector<bool> as its proxy object (std::_Bit_reference in
// libstdc++, temporaries around it): the subscript; else null.
const Expr *bitElement(const Expr *e) {
  if (!e) return nullptr;
  e = e->IgnoreImplicit()->IgnoreParens();
  if (const auto *m = dyn_cast<MaterializeTemporaryExpr>(e)) e = m->getSubExpr()->IgnoreImplicit()->IgnoreParens();
  const auto *oc = dyn_cast<CXXOperatorCallExpr>(e);
  if (!oc || oc->getOperator() != OO_Subscript || oc->getNumArgs() != 2) return nullptr;
  QualType elem = stdContainerElement(oc->getArg(0)->getType(), "vector");
  return !elem.isNull() && elem->isBooleanType() ? oc : nullptr;
}

bool Lowering::elementRef(const Expr *e, Env &env, ir::Expr &array, ir::Expr &index) {
  e = e->IgnoreParens();
  if (const auto *c = dyn_cast<ImplicitCastExpr>(e); c && c->getCastKind() == CK_NoOp) e = c->getSubExpr()->IgnoreParens();
  if (const Expr *bit = bitElement(e)) e = bit; // (mask[i] = b: the element the proxy stands for)
  { // M[i][j] of a flattened local: M[i * stride + j]
    const Expr *rowE = nullptr, *idx = nullptr;
    if (const auto *a = dyn_cast<ArraySubscriptExpr>(e)) rowE = a->getBase(), idx = a->getIdx();
    else if (const auto *oc = dyn_cast<CXXOperatorCallExpr>(e); oc && oc->getOperator() == OO_Subscript && oc->getNumArgs() == 2)
      rowE = oc->getArg(0), idx = oc->getArg(1);
    ir::Expr start;
    if (rowE && flatRow(rowE, env, array, start)) {
      index = ir::Prim::make(ir::Op::Add, {start, lowerIndexExpr(idx, env)});
      return true;
    }
  }
  if (const auto *d = dyn_cast<DeclRefExpr>(e)) { // a reference to an element
    if (const auto *b = dyn_cast<BindingDecl>(d->getDecl()); b && b->getBinding()) // `auto& [s, t] = v;`: what it names
      return elementRef(b->getBinding(), env, array, index);
    const auto *vd = dyn_cast<VarDecl>(d->getDecl());
    const RefTarget *t = vd ? refOf(vd) : nullptr;
    if (!t || t->var || t->choice || !t->path.empty()) return false;
    array = t->array, index = t->index;
    return true;
  }
  if (const auto *a = dyn_cast<ArraySubscriptExpr>(e)) {
    array = lowerArrayRef(a->getBase(), env);
    index = lowerIndexExpr(a->getIdx(), env);
    return true;
  }
  if (iteratorElement(e, env, array, index)) return true; // `*it`, `it[k]` (iterators.cpp)
  if (const auto *u = dyn_cast<UnaryOperator>(e); u && u->getOpcode() == UO_Deref) {
    array = lowerArrayRef(u->getSubExpr(), env);
    index = ir::Const::makeInt(0);
    return true;
  }
  if (unsigned at = 0; const Expr *of = arrayGet(e, at)) { // std::get<I>(a) (pairs_tuples.cpp)
    array = lowerArrayRef(of, env);
    index = ir::Const::makeInt(at);
    return true;
  }
  ArrayInfo ai;
  if (const auto *oc = dyn_cast<CXXOperatorCallExpr>(e);
      oc && oc->getOperator() == OO_Subscript && oc->getNumArgs() == 2 && arrayInfo(oc->getArg(0)->getType(), ai, SourceLocation())) {
    array = lowerArrayRef(oc->getArg(0), env);
    index = lowerIndexExpr(oc->getArg(1), env);
    return true;
  }
  if (const auto *mc = dyn_cast<CXXMemberCallExpr>(e); mc && mc->getMethodDecl() && arrayInfo(mc->getObjectType(), ai, SourceLocation())) {
    llvm::StringRef n = mc->getMethodDecl()->getName();
    const Expr *obj = mc->getImplicitObjectArgument();
    if (n == "at" && mc->getNumArgs() == 1) {
      array = lowerArrayRef(obj, env);
      index = lowerIndexExpr(mc->getArg(0), env);
      return true;
    }
    if ((n == "front" || n == "back") && mc->getNumArgs() == 0) {
      array = lowerArrayRef(obj, env);
      index = n == "front" ? ir::Const::makeInt(0)
                           : ir::Prim::make(ir::Op::Sub, {arraySize(obj, array, mc->getExprLoc(), env), ir::Const::makeInt(1)});
      return true;
    }
  }
  return vectorAccessor(e, env, array, index); // `K(i, j)` of a Matrix (vector_members.cpp)
}

ir::Expr Lowering::lowerArrayMember(const CXXMemberCallExpr *mc, Env &env) {
  SourceLocation loc = mc->getExprLoc();
  const CXXMethodDecl *m = mc->getMethodDecl();
  std::string n = m ? m->getNameAsString() : std::string("?");
  ir::Expr a, i;
  if (elementRef(mc, env, a, i)) return read(a, i, loc);
  const Expr *obj = mc->getImplicitObjectArgument();
  ArrayInfo oi;
  bool constant = arrayInfo(obj->getType(), oi, SourceLocation()) && oi.size >= 0; // std::array: no need to lower obj
  if ((n == "size" || n == "empty") && mc->getNumArgs() == 0) { // of a flattened local array of arrays, or of its row
    ir::Expr len;
    if (const VarDecl *grown = growingLength(obj)) len = env.at(grown); // (a vector of views is no array to lower)
    else if (ir::Expr row = raggedRowLength(obj, env)) len = row; // (ragged_tables.cpp)
    else if (ir::Expr a, st; flatRow(obj, env, a, st)) len = flatStride_.at(flatVar(obj)).stride;
    else if (const VarDecl *fv = flatVar(obj)) len = flatStride_.at(fv).rows;
    if (len) return n == "size" ? len : ir::Prim::make(ir::Op::Eq, {len, ir::Const::makeInt(0)});
  }
  if (n == "size" && mc->getNumArgs() == 0)
    return constant ? ir::Const::makeInt(oi.size) : arraySize(obj, lowerArrayRef(obj, env), loc, env);
  if (n == "empty" && mc->getNumArgs() == 0)
    return constant ? ir::Const::makeBool(oi.size == 0)
                    : ir::Prim::make(ir::Op::Eq, {arraySize(obj, lowerArrayRef(obj, env), loc, env), ir::Const::makeInt(0)});
  if (n == "fill" && mc->getNumArgs() == 1) { // std::array's fill(v)
    ir::Expr a = lowerArrayRef(obj, env);
    ir::Expr v = convert(lowerExpr(mc->getArg(0), env), a->type->elem());
    return fillElements(a, nullptr, arraySize(obj, a, loc, env), v, loc);
  }
  if (n == "swap" && mc->getNumArgs() == 1) return lowerWholeArrayCopy(obj, mc->getArg(0), true, env, loc);
  if (n == "data") fail(loc, "'data()' is only supported where an array is expected (indexing it, or passing it to a function)");
  if (ir::Expr resized = lowerMemberResize(mc, env)) return resized; // a member of an object (resized_members.cpp)
  if (n == "push_back" || n == "emplace_back" || n == "resize" || n == "assign" || n == "clear" || n == "pop_back")
    fail(loc, "'" + n + "' is only supported on a local std::vector, and on an output std::vector parameter of the "
                        "marked function after 'clear()' as its first use (not on other parameters, references or rows)");
  fail(loc, "'" + n + "' on arrays is not supported yet");
}

bool Lowering::lowerArrayStore(const Expr *e, Env &env, ir::Expr &eff, ArrayTarget *target) {
  e = e->IgnoreParens();
  if (const auto *c = dyn_cast<ExprWithCleanups>(e)) e = c->getSubExpr()->IgnoreParens();
  checkObjectAssign(e); // (vector_members.cpp)
  SourceLocation loc = e->getExprLoc();
  const Expr *lhs = nullptr, *rhs = nullptr;
  if (const auto *b = dyn_cast<BinaryOperator>(e); b && b->isAssignmentOp()) lhs = b->getLHS(), rhs = b->getRHS();
  else if (const auto *u = dyn_cast<UnaryOperator>(e); u && u->isIncrementDecrementOp()) lhs = u->getSubExpr();
  else if (const auto *oc = dyn_cast<CXXOperatorCallExpr>(e); oc && isTrivialStructAssign(oc))
    lhs = oc->getArg(0), rhs = oc->getArg(1); // a[i] = Vec3{...}
  else return false;
  if (ArrayInfo ai; rhs && arrayInfo(lhs->getType(), ai, SourceLocation()) && ai.kind == ArrayInfo::StdArray &&
                    isa<DeclRefExpr>(lhs->IgnoreParenImpCasts()) && !isMemberArrayBase(rhs)) {
    const Expr *r = rhs->IgnoreImplicit();
    if (const auto *m = dyn_cast<MaterializeTemporaryExpr>(r)) r = m->getSubExpr()->IgnoreImplicit();
    const auto *il = dyn_cast<InitListExpr>(r);
    if (il && il->getNumInits() == 1) // std::array's braces hold its C array's
      if (const auto *inner = dyn_cast<InitListExpr>(il->getInit(0)->IgnoreImplicit())) il = inner;
    if (!il) {
      eff = lowerWholeArrayCopy(lhs, rhs, false, env, loc); // `p = q;` of std::arrays (local_arrays.cpp)
      return true;
    }
    // `p = {x, y, z};` (`R = {{...}, {...}}` of a local Mat3: its rows flattened)
    if (ir::Expr flat = fixedTable(lhs->getType()) ? flatTableRef(lhs, env) : nullptr) {
      eff = assignElements(flat, tableElements(lhs, il, flat->type->elem(), env), loc);
      return true;
    }
    ir::Expr a = lowerArrayRef(lhs, env);
    const ir::TypeP et = a->type->elem();
    if (std::optional<Flat> table = fixedTable(lhs->getType()); table && et->isArray()) { // an output Mat3& R = {}
      eff = assignElements(a, tableElements(lhs, il, et->elem(), env), loc, table->stride->as<ir::Const>()->ivalue);
      return true;
    }
    if (!et->isScalar()) fail(loc, "assigning braces to an array of structs or arrays is not supported");
    std::vector<ir::Expr> elems(size_t(ai.size));
    for (unsigned k = 0; k < elems.size() && k < il->getNumInits(); ++k)
      elems[k] = convert(lowerExpr(il->getInit(k), env), et);
    eff = assignElements(a, elems, loc);
    return true;
  }
  if (isReferenceWrapper(lhs->getType())) // (reference_wrappers.cpp: a wrapper is the reference it holds)
    fail(lhs->getExprLoc(), "rebinding a std::reference_wrapper is not supported (assign through '.get()', or use another wrapper)");
  if (!target && lowerViewStore(e, env, eff)) return true; // layers[k].w = ...
  // a[i].f.g: the element, then the field path
  std::vector<int> path;
  const Expr *base = lhs->IgnoreParens();
  const Expr *arrow = nullptr; // p->f...: the element *p
  const VarDecl *self = nullptr; // this->f...: the object of a method (classes.cpp)
  int64_t pending = -1; // an element of a member array: its offset from the member's first field
  while (true) {
    if (const auto *c = dyn_cast<ImplicitCastExpr>(base); c && c->getCastKind() == CK_NoOp) base = c->getSubExpr()->IgnoreParens();
    if (const Expr *u = unwrapReference(base)) { // w.get() = v (reference_wrappers.cpp)
      base = u;
      continue;
    }
    if (const auto *d = dyn_cast<DeclRefExpr>(base)) // a structured binding: what it names
      if (const auto *b = dyn_cast<BindingDecl>(d->getDecl()); b && b->getBinding()) {
        base = b->getBinding()->IgnoreParens();
        continue;
      }
    if (peelMemberElement(base, env, path, pending)) continue; // member_arrays.cpp
    if (const auto *c = dyn_cast<ImplicitCastExpr>(base); c && isBaseCast(c) && !c->getType()->isPointerType()) {
      path.insert(path.begin(), c->path_size(), 0); // the base object (class_layout.cpp)
      base = c->getSubExpr()->IgnoreParens();
      continue;
    }
    const auto *m = dyn_cast<MemberExpr>(base);
    const auto *f = m ? dyn_cast<FieldDecl>(m->getMemberDecl()) : nullptr;
    if (!f) break;
    path.insert(path.begin(), fieldIndex(f) + int(pending > 0 ? pending : 0));
    pending = -1;
    base = m->getBase()->IgnoreParens();
    if (m->isArrow()) {
      int up = 0;
      if ((self = thisDeclUp(base, up))) {
        path.insert(path.begin(), size_t(up), 0);
        break;
      }
      if (viewPointerDeref(base)) return false; // `p->n += 1` of `Mat* p` given one object: its member (view_structs.cpp)
      arrow = base;
      break;
    }
  }
  if (!path.empty() && viewPointerDeref(base)) return false; // `(*p).n += 1`, as `p->n`
  ir::Expr a, i;
  const auto *ref = dyn_cast<DeclRefExpr>(base);
  if (!self) self = thisDecl(base, true); // (*this).f
  const RefTarget *t = self ? refOf(self)
                       : ref && !arrow && isa<VarDecl>(ref->getDecl()) ? refOf(cast<VarDecl>(ref->getDecl())) : nullptr;
  if (self && !t) return false; // an object bound to a value: an assignment of it
  if (t && t->var) return false; // a reference to a variable: an assignment of it
  if (t && t->choice) fail(lhs->getExprLoc(), "writes through a reference to one of two objects are not supported");
  if (t) { // a reference to an element, or to a field of one
    a = t->array, i = t->index;
    path.insert(path.begin(), t->path.begin(), t->path.end());
  } else if (arrow) {
    a = lowerArrayRef(arrow, env), i = ir::Const::makeInt(0);
  } else if (!elementRef(base, env, a, i) && !boundCallTarget(base, env, a, i, path)) { // at(v, i) = x
    return false;
  }
  SourceLocation at = lhs->getExprLoc();
  if (!ir::storageArray(a)->is<ir::Var>()) fail(at, "writes into arrays of arrays are not supported yet (use a flat array and 'a[i * n + j]')");
  ir::TypeP et = ir::fieldType(a->type->elem(), path);
  if (target) *target = {a, i, path};
  using M = ir::Store::Mode;
  // the current value of the target, for compound assignments
  auto old = [&] {
    ir::Expr r = read(a, i, at);
    for (int k : path) r = ir::Proj::make(r, k);
    return r;
  };
  if (const auto *u = dyn_cast<UnaryOperator>(e)) {
    if (et->isBool()) fail(loc, "increment of a bool");
    if (!et->isScalar()) fail(loc, "increment of a non-arithmetic value");
    ir::Expr one = Lowering::one(et);
    eff = store(a, i, u->isIncrementOp() ? one : ir::Prim::make(ir::Op::Neg, {one}), M::Add, at, path);
    return true;
  }
  if (!path.empty() && !isa<CompoundAssignOperator>(e)) { // a[i].c = {x, y}: each element's field
    std::vector<int> object(path.begin(), path.end() - 1);
    std::vector<ir::Expr> values =
        memberArrayAssigned(lhs, rhs, ir::fieldType(a->type->elem(), object), path.back(), env);
    if (!values.empty()) {
      Binds stores;
      for (size_t k = 0; k < values.size(); ++k) {
        object.push_back(path.back() + int(k));
        stores.push_back({names_.fresh("_"), store(a, i, values[k], M::Set, at, object)});
        object.pop_back();
      }
      eff = ir::zipLets(stores, ir::Tuple::make({}));
      return true;
    }
  }
  ir::Expr r = lowerExpr(rhs, env);
  const auto *ca = dyn_cast<CompoundAssignOperator>(e);
  if (!ca) {
    eff = store(a, i, et->isScalar() ? convert(r, et) : r, M::Set, at, path);
    return true;
  }
  if (!et->isScalar()) fail(loc, "compound assignment to a non-scalar value");
  ir::TypeP ct = typeOf(ca->getComputationResultType(), loc);
  BinaryOperatorKind op = ca->getOpcode();
  if ((op == BO_AddAssign || op == BO_SubAssign) && ir::sameType(ct, et)) {
    ir::Expr v = convert(r, et);
    eff = store(a, i, op == BO_AddAssign ? v : ir::Prim::make(ir::Op::Neg, {v}), M::Add, at, path);
    return true;
  }
  ir::Op o;
  switch (op) {
  case BO_AddAssign: o = ir::Op::Add; break;
  case BO_SubAssign: o = ir::Op::Sub; break;
  case BO_MulAssign: o = ir::Op::Mul; break;
  case BO_DivAssign: o = ir::Op::Div; break;
  case BO_RemAssign:
    if (!ct->isInt()) fail(loc, "operator '%' on non-integers");
    o = ir::Op::Mod;
    break;
  default:
    if (!ct->isInt()) fail(loc, "operator '" + BinaryOperator::getOpcodeStr(op).str() + "' on non-integers");
    o = bitwiseOp(op);
  }
  eff = store(a, i, convert(ir::Prim::make(o, {convert(old(), ct), convert(r, ct)}), et), M::Set, at, path);
  return true;
}

} // namespace unfad::frontend
