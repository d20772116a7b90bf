// Iterators over contiguous containers, as pointers: `auto it = v.begin()`,
// `std::vector<double>::const_iterator`, `*it`, `it->x`, `it[k]`, `++it`,
// `it += k`, `it != v.end()`, `it - v.begin()`, `std::next`, `std::prev`,
// `std::distance`, `std::advance`, and reverse iterators (`v.rbegin()`).
//
// A std::vector's iterator is a pointer wrapped in a class
// (`__gnu_cxx::__normal_iterator<double*, ...>`, libc++'s `__wrap_iter`), a
// std::array's is a pointer. Either is lowered as a pointer (pointers.cpp):
// a view, an array and an element offset; an iterator local keeps one array
// (ptrBase_) and its offset is an i64 SSA local. A reverse iterator is the
// same view at the element it refers to, one before its base
// (`v.rbegin()` is at n - 1, `v.rend()` at -1), moving the other way: its
// `++` is the offset's `- 1`, its `r + k` the view at `- k`, its
// comparisons and differences those of the offsets, mirrored.
#include "lowering.h"

#include "unfad/ir/equal.h"

#include <clang/AST/DeclCXX.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/ExprCXX.h>

namespace unfad::frontend {

using namespace clang;

namespace {

const ClassTemplateSpecializationDecl *specialization(QualType t) {
  const auto *rd = t.getNonReferenceType().getCanonicalType()->getAsCXXRecordDecl();
  const auto *sd = dyn_cast_or_null<ClassTemplateSpecializationDecl>(rd);
  return sd && sd->getIdentifier() && sd->getTemplateArgs().size() >= 1 &&
                 sd->getTemplateArgs()[0].getKind() == TemplateArgument::Type
             ? sd
             : nullptr;
}

// A standard library's class wrapping a pointer as a container's iterator.
bool wrappedPointer(QualType t) {
  const auto *sd = specialization(t);
  if (!sd || !sd->getTemplateArgs()[0].getAsType()->isPointerType()) return false;
  return sd->getName() == "__normal_iterator" || sd->getName() == "__wrap_iter";
}

bool isStdCall(const CallExpr *c, llvm::StringRef name) {
  const FunctionDecl *fd = c->getDirectCallee();
  return fd && fd->getIdentifier() && fd->getName() == name && fd->isInStdNamespace();
}

ir::Expr plus(const ir::Expr &a, const ir::Expr &b) { return ir::Prim::make(ir::Op::Add, {a, b}); }
ir::Expr minus(const ir::Expr &a, const ir::Expr &b) { return ir::Prim::make(ir::Op::Sub, {a, b}); }
ir::Expr unit() { return ir::Const::makeInt(1); }

} // namespace

const Expr *stripIteratorCopies(const Expr *e) {
  auto sameKind = [](QualType to, QualType from) {
    return iteratorKind(to) != IteratorKind::None && iteratorKind(to) == iteratorKind(from);
  };
  while (true) {
    e = e->IgnoreParenImpCasts();
    if (const auto *m = dyn_cast<MaterializeTemporaryExpr>(e)) e = m->getSubExpr();
    else if (const auto *b = dyn_cast<CXXBindTemporaryExpr>(e)) e = b->getSubExpr();
    else if (const auto *c = dyn_cast<ExprWithCleanups>(e)) e = c->getSubExpr();
    else if (const auto *c = dyn_cast<CXXConstructExpr>(e);
             c && c->getNumArgs() == 1 &&
             (c->getConstructor()->isCopyOrMoveConstructor() || sameKind(c->getType(), c->getArg(0)->getType())))
      e = c->getArg(0);
    else if (const auto *c = dyn_cast<CXXFunctionalCastExpr>(e); c && sameKind(c->getType(), c->getSubExpr()->getType()))
      e = c->getSubExpr();
    else return e;
  }
}

IteratorKind iteratorKind(QualType t) {
  if (t.isNull()) return IteratorKind::None;
  if (wrappedPointer(t)) return IteratorKind::Contiguous;
  const auto *sd = specialization(t);
  if (!sd || sd->getName() != "reverse_iterator" || !sd->isInStdNamespace()) return IteratorKind::None;
  QualType base = sd->getTemplateArgs()[0].getAsType();
  return base->isPointerType() || wrappedPointer(base) ? IteratorKind::Reverse : IteratorKind::None;
}

bool iteratorStep(const CXXOperatorCallExpr *oc) {
  if (oc->getNumArgs() < 1 || iteratorKind(oc->getArg(0)->getType()) == IteratorKind::None) return false;
  switch (oc->getOperator()) {
  case OO_PlusPlus: case OO_MinusMinus: case OO_PlusEqual: case OO_MinusEqual: case OO_Equal: return true;
  default: return false;
  }
}

// The pointer type an iterator wraps (`double*` for a vector<double>'s).
QualType iteratorPointer(QualType t) {
  switch (iteratorKind(t)) {
  case IteratorKind::None: return QualType();
  case IteratorKind::Contiguous: return specialization(t)->getTemplateArgs()[0].getAsType();
  case IteratorKind::Reverse: {
    QualType base = specialization(t)->getTemplateArgs()[0].getAsType();
    return base->isPointerType() ? base : iteratorPointer(base);
  }
  }
  return QualType();
}

// The view an iterator-typed expression denotes (see the file comment);
// null when `e` is not an iterator.
ir::Expr Lowering::lowerIteratorRef(const Expr *e, Env &env) {
  if (ir::Expr p = pairedPosition(e)) return p; // mm.first of a std::minmax_element pair
  IteratorKind kind = iteratorKind(e->getType());
  if (kind == IteratorKind::None) { // (a std::array's or a C array's max_element: a pointer)
    const auto *c = dyn_cast<CallExpr>(stripIteratorCopies(e));
    if (e->getType()->isPointerType() && c && c->getNumArgs() == 2 &&
        (isStdCall(c, "max_element") || isStdCall(c, "min_element")))
      return extremeElementPosition(c, env);
    if (e->getType()->isPointerType() && c && c->getNumArgs() == 3 &&
        (isStdCall(c, "find") || isStdCall(c, "find_if") || isStdCall(c, "find_if_not")))
      return foundPosition(c, env);
    if (const auto *mc = dyn_cast<CXXMemberCallExpr>(stripIteratorCopies(e)); // a std::array's `w.begin()`: a pointer
        mc && e->getType()->isPointerType() && mc->getNumArgs() == 0 && mc->getMethodDecl() &&
        mc->getMethodDecl()->getIdentifier() &&
        llvm::is_contained({"begin", "cbegin", "end", "cend"}, mc->getMethodDecl()->getName()))
      if (ir::Expr a, o; iteratorRef(mc, env, a, o)) return ir::View::make(a, o);
    return nullptr;
  }
  SourceLocation loc = e->getExprLoc();
  const Expr *x = stripIteratorCopies(e);
  bool reverse = kind == IteratorKind::Reverse;
  // a reverse iterator made from a forward one: the element before it
  if (const auto *c = dyn_cast<CXXConstructExpr>(x); c && c->getNumArgs() == 1 && reverse) {
    ir::Expr fwd = lowerArrayRef(c->getArg(0), env);
    return ir::View::make(ir::rootArray(fwd), minus(ir::viewOffset(fwd), unit()));
  }
  if (const auto *c = dyn_cast<CallExpr>(x); c && reverse && isStdCall(c, "make_reverse_iterator") && c->getNumArgs() == 1) {
    ir::Expr fwd = lowerArrayRef(c->getArg(0), env);
    return ir::View::make(ir::rootArray(fwd), minus(ir::viewOffset(fwd), unit()));
  }
  if (const auto *d = dyn_cast<DeclRefExpr>(x)) {
    if (const auto *b = dyn_cast<BindingDecl>(d->getDecl()); b && b->getBinding()) // auto [lo, hi] = ...: what it names
      return lowerArrayRef(b->getBinding(), env);
    const auto *vd = dyn_cast<VarDecl>(d->getDecl());
    if (!vd) fail(loc, "this iterator is not supported");
    ir::Expr v = lookupVar(vd, env, loc);
    if (!v->type->isArray()) fail(loc, "iterator '" + vd->getNameAsString() + "' is not known to point into an array");
    return v;
  }
  // v.begin(), v.end(), v.rbegin(), v.rend() and their c- forms; std::begin(v), ...
  const Expr *container = nullptr;
  llvm::StringRef end;
  if (const auto *mc = dyn_cast<CXXMemberCallExpr>(x); mc && mc->getNumArgs() == 0 && mc->getMethodDecl() &&
                                                       mc->getMethodDecl()->getIdentifier()) {
    llvm::StringRef n = mc->getMethodDecl()->getName();
    ArrayInfo ai;
    if (arrayInfo(mc->getObjectType(), ai, SourceLocation()) && ai.kind != ArrayInfo::Pointer)
      container = mc->getImplicitObjectArgument(), end = n;
    else if (n == "base" && iteratorKind(mc->getObjectType()) == IteratorKind::Reverse) { // r.base(): one past r's element
      ir::Expr r = lowerArrayRef(mc->getImplicitObjectArgument(), env);
      return ir::View::make(ir::rootArray(r), plus(ir::viewOffset(r), unit()));
    }
  } else if (const auto *c = dyn_cast<CallExpr>(x); c && c->getNumArgs() == 1 && c->getDirectCallee() &&
                                                    c->getDirectCallee()->isInStdNamespace() &&
                                                    c->getDirectCallee()->getIdentifier()) {
    ArrayInfo ai;
    if (arrayInfo(c->getArg(0)->getType(), ai, SourceLocation()) && ai.kind != ArrayInfo::Pointer)
      container = c->getArg(0), end = c->getDirectCallee()->getName();
  }
  if (container) {
    if (end.consume_front("c")) {} // cbegin, crbegin
    ir::Expr array = lowerArrayRef(container, env);
    auto size = [&] { return arraySize(container, array, loc, env); };
    if (end == "begin") return ir::View::make(array, ir::Const::makeInt(0));
    if (end == "end") return ir::View::make(array, size());
    if (end == "rbegin") return ir::View::make(array, minus(size(), unit()));
    if (end == "rend") return ir::View::make(array, ir::Const::makeInt(-1));
    fail(loc, "'" + end.str() + "' of a container is not supported here");
  }
  // it + k, k + it, it - k
  if (const auto *oc = dyn_cast<CXXOperatorCallExpr>(x);
      oc && oc->getNumArgs() == 2 && (oc->getOperator() == OO_Plus || oc->getOperator() == OO_Minus)) {
    bool left = iteratorKind(oc->getArg(0)->getType()) != IteratorKind::None;
    ir::Expr it = lowerArrayRef(oc->getArg(left ? 0 : 1), env);
    ir::Expr k = lowerIndexExpr(oc->getArg(left ? 1 : 0), env);
    bool forward = (oc->getOperator() == OO_Plus) != reverse;
    return ir::View::make(ir::rootArray(it), forward ? plus(ir::viewOffset(it), k) : minus(ir::viewOffset(it), k));
  }
  // std::next(it[, k]), std::prev(it[, k])
  if (const auto *c = dyn_cast<CallExpr>(x); c && (isStdCall(c, "next") || isStdCall(c, "prev")) && c->getNumArgs() >= 1) {
    ir::Expr it = lowerArrayRef(c->getArg(0), env);
    ir::Expr k = c->getNumArgs() == 2 && !isa<CXXDefaultArgExpr>(c->getArg(1)) ? lowerIndexExpr(c->getArg(1), env) : unit();
    bool forward = isStdCall(c, "next") != reverse;
    return ir::View::make(ir::rootArray(it), forward ? plus(ir::viewOffset(it), k) : minus(ir::viewOffset(it), k));
  }
  if (const auto *c = dyn_cast<CallExpr>(x); c && (c->getNumArgs() == 2 || c->getNumArgs() == 3) &&
                                             (isStdCall(c, "max_element") || isStdCall(c, "min_element")))
    return extremeElementPosition(c, env);
  if (const auto *c = dyn_cast<CallExpr>(x);
      c && c->getNumArgs() == 3 && (isStdCall(c, "find") || isStdCall(c, "find_if") || isStdCall(c, "find_if_not")))
    return foundPosition(c, env);
  if (isa<ConditionalOperator>(x)) return lowerPointerExpr(x, env); // `c ? it : jt`, as for pointers
  if (const auto *u = dyn_cast<CXXOperatorCallExpr>(x); u && iteratorStep(u)) { // `*it++`, `f(++it)`
    ir::Expr array = lowerArrayRef(u->getArg(0), env);
    ir::Expr offset = lowerSideEffect(u, env); // (the old offset for it++, the new one otherwise)
    return ir::View::make(ir::rootArray(array), offset);
  }
  fail(loc, "this iterator expression is not supported (iterators are supported as positions in an array: 'v.begin() + k', "
            "'std::next(it)', an iterator variable)");
}

// `std::max_element(first, last)` as an iterator (`auto it =
// std::max_element(...)`, `it - v.begin()`): the first greatest element's
// position, `last` for an empty range.
//   fold j in [0, n - 1) from (best, at) = (a[lo], lo) ->
//     let x = a[lo + j + 1] in if best < x then (x, lo + j + 1) else (best, at)
ir::Expr Lowering::extremeElementPosition(const CallExpr *c, Env &env) {
  SourceLocation loc = c->getExprLoc();
  ir::Expr a, lo, n;
  if (!iteratorRange(c->getArg(0), c->getArg(1), env, a, lo, n))
    fail(loc, "the range of this 'std::" + c->getDirectCallee()->getNameAsString() + "' is not recognised");
  if (c->getNumArgs() == 3) return comparedExtremePosition(c, a, lo, n, env);
  if (!a->type->elem()->isScalar()) fail(loc, "'std::" + c->getDirectCallee()->getNameAsString() + "' of non-scalar values is not supported");
  const bool max = isStdCall(c, "max_element");
  const ir::TypeP et = a->type->elem();
  ir::Expr first = ir::If::make(ir::Prim::make(ir::Op::Lt, {ir::Const::makeInt(0), n}), read(a, lo, loc), ir::Const::zero(et));
  ir::Expr rest = ir::Prim::make(ir::Op::Sub, {n, unit()});
  ir::Expr found = foldRange(rest, ir::Tuple::make({first, lo}), [&](const ir::Expr &j, const ir::Expr &state) {
    ir::Expr at = plus(lo, plus(j, unit()));
    ir::Expr x = read(a, at, loc), best = ir::Proj::make(state, 0);
    ir::Expr better = max ? ir::Prim::make(ir::Op::Lt, {best, x}) : ir::Prim::make(ir::Op::Lt, {x, best});
    return ir::If::make(better, ir::Tuple::make({x, at}), state);
  });
  return ir::View::make(ir::rootArray(a), ir::Proj::make(found, 1));
}

// `std::min_element(first, last, less)` (`max_element`): with a comparator
// (a lambda, a function; over structs too), the position only:
//   fold j in [0, n - 1) from at = lo ->
//     let x = lo + j + 1 in if less(a[x], a[at]) then x else at   (max: less(a[at], a[x]))
// (`last` for an empty range: lo + n = lo.)
ir::Expr Lowering::comparedExtremePosition(const CallExpr *c, const ir::Expr &a, const ir::Expr &lo, const ir::Expr &n,
                                           Env &env) {
  SourceLocation loc = c->getExprLoc();
  const std::string name = c->getDirectCallee()->getNameAsString();
  Callable less;
  if (!callableArg(c->getArg(2), 2, env, less))
    fail(c->getArg(2)->getExprLoc(), "this comparator of 'std::" + name + "' is not supported (a lambda or a function)");
  if (!callableRoots({&less}, env).empty())
    fail(loc, "'std::" + name + "' with a comparator that writes a captured variable is not supported");
  const bool max = name == "max_element";
  ir::Expr rest = ir::If::make(ir::Prim::make(ir::Op::Lt, {ir::Const::makeInt(0), n}),
                               ir::Prim::make(ir::Op::Sub, {n, unit()}), ir::Const::makeInt(0));
  ir::Expr at = callableLoop(rest, lo, {}, env, loc, [&](const ir::Expr &j, const ir::Expr &best, Env &in) -> ir::Expr {
    const ir::Expr here = plus(lo, plus(j, unit()));
    CallArg x{nullptr, a, here, nullptr}, b{nullptr, a, best, nullptr};
    ir::Expr better = toBool(applyCallable(less, max ? std::vector<CallArg>{b, x} : std::vector<CallArg>{x, b}, in, loc));
    return ir::If::make(better, here, best);
  });
  return ir::View::make(ir::rootArray(a), at);
}

// `auto [lo, hi] = std::minmax_element(first, last[, less])` (or a pair
// local `mm`): the first smallest and the last largest element's positions,
// from one loop, each a let; the bindings (mm.first, mm.second) are views
// at them.
//   fold j in [0, n - 1) from (mn, mx) = (lo, lo) -> let x = lo + j + 1 in
//     (less(a[x], a[mn]) ? x : mn, less(a[x], a[mx]) ? mx : x)
// (`last` for both when the range is empty: lo + n = lo.)
const CallExpr *Lowering::minmaxElementInit(const VarDecl *vd) {
  const CallExpr *c = initializerCall(vd);
  return c && isStdCall(c, "minmax_element") && (c->getNumArgs() == 2 || c->getNumArgs() == 3) ? c : nullptr;
}

// The call whose value initialises `vd` (under the copy or conversion
// around it), or null.
const CallExpr *Lowering::initializerCall(const VarDecl *vd) {
  const Expr *init = vd->getInit();
  if (!init) return nullptr;
  init = init->IgnoreImplicit();
  if (const auto *c = dyn_cast<CXXConstructExpr>(init); c && c->getNumArgs() == 1) init = c->getArg(0)->IgnoreImplicit();
  return dyn_cast<CallExpr>(init);
}

ir::Expr Lowering::lowerMinmaxElementLocal(const VarDecl *vd, Env &env, const Tail &k) {
  const CallExpr *c = minmaxElementInit(vd);
  SourceLocation loc = c->getExprLoc();
  ir::Expr a, lo, n;
  if (!iteratorRange(c->getArg(0), c->getArg(1), env, a, lo, n)) fail(loc, "the range of this 'std::minmax_element' is not recognised");
  Callable less;
  if (c->getNumArgs() == 3) {
    if (!callableArg(c->getArg(2), 2, env, less))
      fail(c->getArg(2)->getExprLoc(), "this comparator of 'std::minmax_element' is not supported (a lambda or a function)");
    if (!callableRoots({&less}, env).empty())
      fail(loc, "'std::minmax_element' with a comparator that writes a captured variable is not supported");
  } else if (!a->type->elem()->isScalar()) {
    fail(loc, "'std::minmax_element' of non-scalar values is not supported (give it a comparator)");
  }
  auto lessAt = [&](const ir::Expr &x, const ir::Expr &y, Env &in) -> ir::Expr {
    if (c->getNumArgs() == 2) return ir::Prim::make(ir::Op::Lt, {read(a, x, loc), read(a, y, loc)});
    return toBool(applyCallable(less, {CallArg{nullptr, a, x, nullptr}, CallArg{nullptr, a, y, nullptr}}, in, loc));
  };
  ir::Expr rest = ir::If::make(ir::Prim::make(ir::Op::Lt, {ir::Const::makeInt(0), n}),
                               ir::Prim::make(ir::Op::Sub, {n, unit()}), ir::Const::makeInt(0));
  ir::Expr both = callableLoop(rest, ir::Tuple::make({lo, lo}), {}, env, loc,
                               [&](const ir::Expr &j, const ir::Expr &st, Env &in) -> ir::Expr {
                                 const ir::Expr x = plus(lo, plus(j, unit()));
                                 const ir::Expr mn = ir::Proj::make(st, 0), mx = ir::Proj::make(st, 1);
                                 return ir::Tuple::make({ir::If::make(lessAt(x, mn, in), x, mn),
                                                         ir::If::make(lessAt(x, mx, in), mx, x)});
                               });
  const std::string name = decompositionName(vd);
  const std::string bn = names_.fresh(name), mn = names_.fresh(name + "_min"), mx = names_.fresh(name + "_max");
  const ir::Expr bv = ir::Var::make(bn, both->type);
  const ir::Expr base = ir::rootArray(a);
  positionPairs_[vd] = {ir::View::make(base, ir::Var::make(mn, ir::Type::i64())),
                        ir::View::make(base, ir::Var::make(mx, ir::Type::i64()))};
  return ir::Let::make(bn, both,
                       ir::Let::make(mn, ir::Proj::make(bv, 0), ir::Let::make(mx, ir::Proj::make(bv, 1), k(env))));
}

// `mm.first`, `mm.second` of such a pair (null otherwise).
ir::Expr Lowering::pairedPosition(const Expr *e) {
  const auto *m = dyn_cast<MemberExpr>(stripIteratorCopies(e)->IgnoreParenImpCasts());
  const auto *d = m ? dyn_cast<DeclRefExpr>(m->getBase()->IgnoreParenImpCasts()) : nullptr;
  const auto *vd = d ? dyn_cast<VarDecl>(d->getDecl()) : nullptr;
  auto it = vd ? positionPairs_.find(vd) : positionPairs_.end();
  if (it == positionPairs_.end()) return nullptr;
  return m->getMemberDecl()->getName() == "first" ? it->second.first : it->second.second;
}

// `std::find(first, last, v)`, `std::find_if(first, last, pred)`,
// `std::find_if_not`: the first matching element's position, `last` when
// none matches.
//   fold j in [0, n) from at = lo + n -> if at == lo + n && match(a[lo + j]) then lo + j else at
// (The test runs on every element, where the library stops at the first
// match: the same position, for a predicate that writes nothing.)
ir::Expr Lowering::foundPosition(const CallExpr *c, Env &env) {
  SourceLocation loc = c->getExprLoc();
  const std::string name = c->getDirectCallee()->getNameAsString();
  ir::Expr a, lo, n;
  if (!iteratorRange(c->getArg(0), c->getArg(1), env, a, lo, n))
    fail(loc, "the range of this 'std::" + name + "' is not recognised");
  const ir::TypeP et = a->type->elem();
  if (!et->isScalar()) fail(loc, "'std::" + name + "' of non-scalar values is not supported");
  Callable pred;
  if (name != "find" && !callableArg(c->getArg(2), 1, env, pred))
    fail(c->getArg(2)->getExprLoc(), "this predicate of 'std::" + name + "' is not supported (a lambda or a function)");
  if (name != "find" && !callableRoots({&pred}, env).empty())
    fail(loc, "'std::" + name + "' with a predicate that writes a captured variable is not supported (it stops at the "
                                "first match)");
  const ir::Expr end = plus(lo, n);
  ir::Expr at = callableLoop(n, end, {}, env, loc, [&](const ir::Expr &j, const ir::Expr &acc, Env &in) -> ir::Expr {
    const ir::Expr here = plus(lo, j);
    ir::Expr match;
    if (name == "find") {
      match = ir::Prim::make(ir::Op::Eq, {read(a, here, loc), convert(lowerExpr(c->getArg(2), in), et)});
    } else {
      match = toBool(applyCallable(pred, {CallArg{nullptr, a, here, nullptr}}, in, loc));
      if (name == "find_if_not") match = ir::Prim::make(ir::Op::Not, {match});
    }
    ir::Expr first = ir::Prim::make(ir::Op::And, {ir::Prim::make(ir::Op::Eq, {acc, end}), match});
    return ir::If::make(first, here, acc);
  });
  return ir::View::make(ir::rootArray(a), at);
}

// `*it`, `it[k]`, `it->` of an iterator: the array and the element's index.
bool Lowering::iteratorElement(const Expr *e, Env &env, ir::Expr &array, ir::Expr &index) {
  const auto *oc = dyn_cast<CXXOperatorCallExpr>(e->IgnoreParens());
  if (!oc || oc->getNumArgs() < 1) return false;
  IteratorKind kind = iteratorKind(oc->getArg(0)->getType());
  if (kind == IteratorKind::None) return false;
  ir::Expr it;
  switch (oc->getOperator()) {
  case OO_Star:
  case OO_Arrow:
    if (oc->getNumArgs() != 1) return false;
    it = lowerArrayRef(oc->getArg(0), env);
    array = ir::rootArray(it), index = ir::viewOffset(it);
    return true;
  case OO_Subscript: {
    it = lowerArrayRef(oc->getArg(0), env);
    ir::Expr k = lowerIndexExpr(oc->getArg(1), env);
    array = ir::rootArray(it);
    index = kind == IteratorKind::Reverse ? minus(ir::viewOffset(it), k) : plus(ir::viewOffset(it), k);
    return true;
  }
  default: return false;
  }
}

// `a == b`, `a < b`, ..., `a - b` of two iterators into one array (their
// offsets', mirrored for reverse iterators); `std::distance(a, b)` of
// iterators or pointers; an element `*it`, `it[k]`. Null for other calls.
ir::Expr Lowering::lowerIteratorCall(const CallExpr *ce, Env &env) {
  if (iteratorKind(ce->getType()) != IteratorKind::None && // `++it`, `it + 1`, `v.begin()`, `std::next(it)` as values
      (isa<CXXOperatorCallExpr>(ce) || isa<CXXMemberCallExpr>(ce) || isStdCall(ce, "next") || isStdCall(ce, "prev") ||
       isStdCall(ce, "make_reverse_iterator")))
    return lowerArrayRef(ce, env); // (not std::transform's result: lowerStdAlgorithm)
  if (const auto *oc = dyn_cast<CXXOperatorCallExpr>(ce); oc && oc->getNumArgs() >= 1 &&
                                                         iteratorKind(oc->getArg(0)->getType()) != IteratorKind::None) {
    if (ir::Expr a, i; iteratorElement(oc, env, a, i)) {
      if (oc->getOperator() == OO_Arrow) return nullptr; // (a pointer: lowerArrayRef)
      return read(a, i, ce->getExprLoc());
    }
    if (oc->getNumArgs() != 2 || iteratorKind(oc->getArg(1)->getType()) == IteratorKind::None) return nullptr;
    return positionOp(BinaryOperator::getOverloadedOpcode(oc->getOperator()), oc->getArg(0), oc->getArg(1), env,
                      ce->getExprLoc());
  }
  if (isStdCall(ce, "distance") && ce->getNumArgs() == 2) // distance(a, b) = b - a
    return positionOp(BO_Sub, ce->getArg(1), ce->getArg(0), env, ce->getExprLoc());
  return nullptr;
}

// `a != b` and the other comparisons C++20 rewrites from `==` and `<=>`.
ir::Expr Lowering::lowerRewrittenIteratorComparison(const CXXRewrittenBinaryOperator *rb, Env &env) {
  CXXRewrittenBinaryOperator::DecomposedForm f = rb->getDecomposedForm();
  if (iteratorKind(f.LHS->getType()) == IteratorKind::None || iteratorKind(f.RHS->getType()) == IteratorKind::None)
    return nullptr;
  return positionOp(f.Opcode, f.LHS, f.RHS, env, rb->getExprLoc());
}

// `l op r` (a comparison or `-`) of two pointers or iterators into one
// array: their offsets' (mirrored for reverse iterators, for which further
// on is a smaller offset).
ir::Expr Lowering::positionOp(BinaryOperatorKind op, const Expr *l, const Expr *r, Env &env, SourceLocation loc) {
  ir::Expr p = lowerArrayRef(l, env), q = lowerArrayRef(r, env);
  if (!ir::alphaEqual(ir::rootArray(p), ir::rootArray(q)))
    fail(loc, "comparing or subtracting pointers or iterators into different arrays is not supported");
  ir::Expr x = ir::viewOffset(p), y = ir::viewOffset(q);
  if (iteratorKind(l->getType()) == IteratorKind::Reverse) std::swap(x, y);
  switch (op) {
  case BO_Sub: return ir::Prim::make(ir::Op::Sub, {x, y});
  case BO_LT: return ir::Prim::make(ir::Op::Lt, {x, y});
  case BO_LE: return ir::Prim::make(ir::Op::Le, {x, y});
  case BO_GT: return ir::Prim::make(ir::Op::Gt, {x, y});
  case BO_GE: return ir::Prim::make(ir::Op::Ge, {x, y});
  case BO_EQ: return ir::Prim::make(ir::Op::Eq, {x, y});
  case BO_NE: return ir::Prim::make(ir::Op::Ne, {x, y});
  default: fail(loc, "operator '" + BinaryOperator::getOpcodeStr(op).str() + "' on pointers or iterators is not supported");
  }
}

// `++it`, `it--`, `it += k`, `it -= k`, `it = other`, `std::advance(it, k)`
// on an iterator local (std::advance also on a pointer local): the local and
// its new offset. False for other expressions.
bool Lowering::lowerIteratorStep(const Expr *e, Env &env, const VarDecl *&root, ir::Expr &newOffset) {
  const Expr *target = nullptr, *amount = nullptr;
  int sign = 0; // +1 forward, -1 back, 0 assignment
  if (const auto *oc = dyn_cast<CXXOperatorCallExpr>(e); oc && oc->getNumArgs() >= 1 &&
                                                         iteratorKind(oc->getArg(0)->getType()) != IteratorKind::None) {
    target = oc->getArg(0);
    switch (oc->getOperator()) {
    case OO_PlusPlus: sign = 1; break;
    case OO_MinusMinus: sign = -1; break;
    case OO_PlusEqual: sign = 1, amount = oc->getArg(1); break;
    case OO_MinusEqual: sign = -1, amount = oc->getArg(1); break;
    case OO_Equal: amount = oc->getArg(1); break;
    default: return false;
    }
  } else if (const auto *c = dyn_cast<CallExpr>(e); c && isStdCall(c, "advance") && c->getNumArgs() == 2) {
    target = c->getArg(0), amount = c->getArg(1), sign = 1;
  } else {
    return false;
  }
  SourceLocation loc = e->getExprLoc();
  const auto *d = dyn_cast<DeclRefExpr>(stripIteratorCopies(target));
  const auto *vd = d ? dyn_cast<VarDecl>(d->getDecl()) : nullptr;
  auto base = vd ? ptrBase_.find(vd) : ptrBase_.end();
  if (base == ptrBase_.end())
    fail(loc, "only iterator and pointer variables can be moved here (not this expression)");
  root = vd;
  if (sign == 0) {
    newOffset = pointerReassignment(vd, amount, env, loc);
    return true;
  }
  if (iteratorKind(target->getType()) == IteratorKind::Reverse) sign = -sign;
  ir::Expr k = amount ? lowerIndexExpr(amount, env) : unit();
  ir::Expr cur = env.at(vd);
  newOffset = sign > 0 ? plus(cur, k) : minus(cur, k);
  return true;
}

// `for (auto it = v.begin(); it != v.end(); ++it)`, `for (const double* p =
// a; p < a + n; ++p)`, `for (auto r = v.rbegin(); r != v.rend(); ++r)`: a
// counted loop over the offsets (a Fold, as `for (int i = ...)`), when the
// body does not move the iterator and the end cannot change in the loop.
bool Lowering::countedIteratorShape(const ForStmt *fs, const Env &env, Counted &c) {
  const auto *ds = dyn_cast_or_null<DeclStmt>(fs->getInit());
  if (!ds || !ds->isSingleDecl() || !fs->getCond() || !fs->getInc()) return false;
  const auto *iv = dyn_cast<VarDecl>(ds->getSingleDecl());
  if (!iv || !iv->getInit() || iv->getType()->isReferenceType()) return false;
  IteratorKind kind = iteratorKind(iv->getType());
  if (kind == IteratorKind::None && !iv->getType()->isPointerType()) return false;
  auto isIv = [iv](const Expr *e) {
    const auto *d = dyn_cast<DeclRefExpr>(stripIteratorCopies(e));
    return d && d->getDecl() == iv;
  };
  // the increment: ++it, it++ (or ++p, p++)
  const Expr *inc = stripIteratorCopies(fs->getInc());
  bool stepsOne = false;
  if (const auto *u = dyn_cast<UnaryOperator>(inc)) stepsOne = u->isIncrementOp() && isIv(u->getSubExpr());
  if (const auto *oc = dyn_cast<CXXOperatorCallExpr>(inc)) stepsOne = oc->getOperator() == OO_PlusPlus && isIv(oc->getArg(0));
  if (!stepsOne) return false;
  // the condition: it != end, it < end (either way round)
  const Expr *l = nullptr, *r = nullptr;
  BinaryOperatorKind op = BO_Comma;
  const Expr *cond = stripIteratorCopies(fs->getCond());
  if (const auto *b = dyn_cast<BinaryOperator>(cond)) l = b->getLHS(), r = b->getRHS(), op = b->getOpcode();
  else if (const auto *rb = dyn_cast<CXXRewrittenBinaryOperator>(cond))
    l = rb->getDecomposedForm().LHS, r = rb->getDecomposedForm().RHS, op = rb->getDecomposedForm().Opcode;
  else if (const auto *oc = dyn_cast<CXXOperatorCallExpr>(cond); oc && oc->getNumArgs() == 2) {
    l = oc->getArg(0), r = oc->getArg(1);
    op = oc->getOperator() == OO_ExclaimEqual ? BO_NE : oc->getOperator() == OO_Less ? BO_LT
       : oc->getOperator() == OO_Greater ? BO_GT : BO_Comma;
  }
  if (!l) return false;
  if (isIv(r)) std::swap(l, r), op = op == BO_GT ? BO_LT : op == BO_LT ? BO_GT : op;
  if (!isIv(l) || (op != BO_NE && op != BO_LT)) return false;
  if (assignsIn(fs->getBody(), iv)) return false;
  std::vector<const VarDecl *> assigned;
  collectAssigned(fs->getBody(), env, assigned);
  if (!invariantIterator(r, assigned)) return false;
  c.index = iv, c.bound = r, c.pointer = true;
  // a reverse iterator moving on is an offset moving back: `r != rend` is `offset > rend's`
  c.reversed = c.adjust = kind == IteratorKind::Reverse;
  return true;
}

// An iterator or pointer the loop cannot change: a variable it does not
// assign, `v.end()` of a container that does not grow in it, `e + k` of such.
bool Lowering::invariantIterator(const Expr *e, const std::vector<const VarDecl *> &assigned) {
  const Expr *x = stripIteratorCopies(e);
  if (const auto *mc = dyn_cast<CXXMemberCallExpr>(x); mc && mc->getNumArgs() == 0)
    return loopInvariant(mc->getImplicitObjectArgument(), assigned) && !growsIn(mc->getImplicitObjectArgument(), assigned);
  if (const auto *c = dyn_cast<CallExpr>(x); c && c->getNumArgs() == 1 && (isStdCall(c, "end") || isStdCall(c, "cend")))
    return loopInvariant(c->getArg(0), assigned) && !growsIn(c->getArg(0), assigned);
  if (const auto *oc = dyn_cast<CXXOperatorCallExpr>(x);
      oc && oc->getNumArgs() == 2 && (oc->getOperator() == OO_Plus || oc->getOperator() == OO_Minus))
    return invariantIterator(oc->getArg(0), assigned) && loopInvariant(oc->getArg(1), assigned);
  return loopInvariant(x, assigned);
}

} // namespace unfad::frontend
