// Pointers as views into arrays: `&a[k]`, `a + k`, `v.data() + k`, pointer
// locals (`const double* row = x + i * d`), `p++` / `p += d` / `p = q + k`,
// and pointer comparisons and differences.
//
// A pointer is an array and an element offset (ir::View). A pointer local
// keeps one array for its whole life (ptrBase_) and its offset is an
// ordinary i64 SSA local in the Env, so loops and ifs carry it like any
// integer; reading the local gives View(array, offset) back (lookupVar).
#include "lowering.h"

#include "unfad/ir/equal.h"

#include <clang/AST/DeclCXX.h>
#include <clang/AST/RecursiveASTVisitor.h>

#include <algorithm>

namespace unfad::frontend {

using namespace clang;

// (the declaration: lowering.h)
bool isNullPointer(const Expr *x, ASTContext &ctx) {
  return isa<CXXNullPtrLiteralExpr>(x) || x->isNullPointerConstant(ctx, Expr::NPC_ValueDependentIsNotNull);
}

namespace {

// Finds a statement of a body that moves the pointer `p` (`p++`, `--p`,
// `p += d`, `p -= d`, `p = q`).
class PointerMoves : public RecursiveASTVisitor<PointerMoves> {
public:
  explicit PointerMoves(const ValueDecl *p) : p_(p) {}
  bool found = false;
  bool VisitUnaryOperator(UnaryOperator *u) {
    if (u->isIncrementDecrementOp()) note(u->getSubExpr());
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *b) {
    if (b->isAssignmentOp()) note(b->getLHS());
    return true;
  }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *oc) { // ++it, it += k (iterators.cpp)
    if (iteratorStep(oc)) note(oc->getArg(0)->IgnoreImpCasts());
    return true;
  }
  bool VisitCallExpr(CallExpr *c) { // std::advance(it, k)
    const FunctionDecl *fd = c->getDirectCallee();
    if (fd && fd->getIdentifier() && fd->getName() == "advance" && fd->isInStdNamespace() && c->getNumArgs() == 2)
      note(c->getArg(0)->IgnoreImpCasts());
    return true;
  }

private:
  const ValueDecl *p_;
  void note(const Expr *lhs) {
    if (const auto *d = dyn_cast<DeclRefExpr>(lhs->IgnoreParens()); d && d->getDecl() == p_) found = true;
  }
};

// Finds a comparison or difference of two pointers or iterators (`first !=
// last`, `end - p`).
class PointerComparisons : public RecursiveASTVisitor<PointerComparisons> {
public:
  bool found = false;
  bool VisitBinaryOperator(BinaryOperator *b) {
    if ((b->isComparisonOp() || b->getOpcode() == BO_Sub) && positions(b->getLHS(), b->getRHS())) found = true;
    return true;
  }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *oc) {
    if (oc->getNumArgs() == 2 && positions(oc->getArg(0), oc->getArg(1))) found = true;
    return true;
  }
  bool VisitCXXRewrittenBinaryOperator(CXXRewrittenBinaryOperator *rb) { // C++20's `first != last`
    if (positions(rb->getDecomposedForm().LHS, rb->getDecomposedForm().RHS)) found = true;
    return true;
  }
  bool VisitCallExpr(CallExpr *c) { // std::distance(first, last)
    const FunctionDecl *fd = c->getDirectCallee();
    if (fd && fd->getIdentifier() && fd->getName() == "distance" && fd->isInStdNamespace()) found = true;
    return true;
  }

private:
  static bool position(const Expr *e) {
    QualType t = e->IgnoreParenImpCasts()->getType();
    return t->isPointerType() || iteratorKind(t) != IteratorKind::None;
  }
  static bool positions(const Expr *l, const Expr *r) { return position(l) && position(r); }
};

// The pointer parameters two positions are taken from: the parameter a
// pointer expression starts at (`first`, `first + 1`, `&first[k]`, a local
// initialised from one: `const double* p = first + 1;`). Positions given
// to a function that relates its own parameters so (`std::accumulate(first,
// last, 0.0)`, a helper `mean(first, last)`) are related too.
class RelatedParams : public RecursiveASTVisitor<RelatedParams> {
public:
  using Pairs = std::set<std::pair<const ParmVarDecl *, const ParmVarDecl *>>; // (earlier, later)
  // (`known`: each callee's pairs, found once)
  RelatedParams(std::set<const FunctionDecl *> &visiting, std::map<const FunctionDecl *, Pairs> &known)
      : visiting_(visiting), known_(known) {}
  Pairs pairs;
  bool VisitCallExpr(CallExpr *c) {
    const FunctionDecl *fd = c->getDirectCallee();
    const FunctionDecl *def = fd ? fd->getDefinition() : nullptr;
    if (!def || !def->getBody()) return true;
    auto found = known_.find(def);
    if (found == known_.end()) {
      if (visiting_.size() > 8 || !visiting_.insert(def).second) return true; // (a recursion: what is known so far)
      RelatedParams inner(visiting_, known_);
      inner.TraverseStmt(def->getBody());
      visiting_.erase(def);
      found = known_.emplace(def, std::move(inner.pairs)).first;
    }
    const unsigned skip = isa<CXXOperatorCallExpr>(c) && isa<CXXMethodDecl>(def) ? 1 : 0; // (an operator's object)
    for (const auto &[a, b] : found->second) {
      unsigned i = a->getFunctionScopeIndex() + skip, j = b->getFunctionScopeIndex() + skip;
      if (a->getDeclContext() == def && b->getDeclContext() == def && i < c->getNumArgs() && j < c->getNumArgs())
        note(c->getArg(i), c->getArg(j));
    }
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *b) {
    // (a comparison only in a loop's condition: elsewhere, `if (x == y)`,
    // `if (dst < src)` of a copy that may overlap, it may be asking whether
    // two arrays are one; a loop runs to its end only if they are)
    if (b->getOpcode() == BO_Sub || (b->isComparisonOp() && inCondition_ > 0)) note(b->getLHS(), b->getRHS());
    return true;
  }
  bool TraverseDoStmt(DoStmt *s) { return TraverseStmt(s->getBody()) && traverseCondition(s->getCond()); }
  bool TraverseForStmt(ForStmt *s) {
    return TraverseStmt(s->getInit()) && traverseCondition(s->getCond()) && TraverseStmt(s->getInc()) &&
           TraverseStmt(s->getBody());
  }
  bool TraverseWhileStmt(WhileStmt *s) { return traverseCondition(s->getCond()) && TraverseStmt(s->getBody()); }

private:
  std::set<const FunctionDecl *> &visiting_;
  std::map<const FunctionDecl *, Pairs> &known_;
  int inCondition_ = 0;
  bool traverseCondition(Expr *cond) {
    ++inCondition_;
    const bool ok = TraverseStmt(cond);
    --inCondition_;
    return ok;
  }
  static const ParmVarDecl *origin(const Expr *e, int depth = 0) {
    if (!e || depth > 8) return nullptr;
    e = e->IgnoreParenImpCasts();
    if (const auto *b = dyn_cast<BinaryOperator>(e); b && b->isAdditiveOp())
      return origin(b->getLHS()->getType()->isPointerType() ? b->getLHS() : b->getRHS(), depth + 1);
    if (const auto *u = dyn_cast<UnaryOperator>(e); u && u->getOpcode() == UO_AddrOf)
      if (const auto *a = dyn_cast<ArraySubscriptExpr>(u->getSubExpr()->IgnoreParens())) return origin(a->getBase(), depth + 1);
    const auto *d = dyn_cast<DeclRefExpr>(e);
    if (!d) return nullptr;
    if (const auto *p = dyn_cast<ParmVarDecl>(d->getDecl())) return p->getType()->isPointerType() ? p : nullptr;
    const auto *v = dyn_cast<VarDecl>(d->getDecl());
    return v && v->getType()->isPointerType() ? origin(v->getInit(), depth + 1) : nullptr;
  }
  void note(const Expr *l, const Expr *r) {
    const ParmVarDecl *a = origin(l), *b = origin(r);
    if (!a || !b || a == b) return;
    if (a->getFunctionScopeIndex() > b->getFunctionScopeIndex()) std::swap(a, b);
    pairs.insert({a, b});
  }
};

} // namespace

// A marked function's range `(const double* first, const double* last)`:
// `last` is compared with a position taken from `first` in a loop's
// condition (`p != last`, `p < last`) or subtracted (`last - first`), which
// C++ defines only within one array: then `last` is a position in
// `first`'s array, at `last - first`, and has no adjoint of its own. Each
// such later parameter with the earlier it belongs to.
std::map<const ParmVarDecl *, const ParmVarDecl *> Lowering::rangeEnds(const FunctionDecl *def) {
  std::map<const ParmVarDecl *, const ParmVarDecl *> out;
  if (!def->getBody()) return out;
  std::set<const FunctionDecl *> visiting{def};
  std::map<const FunctionDecl *, RelatedParams::Pairs> known;
  RelatedParams finder(visiting, known);
  finder.TraverseStmt(def->getBody());
  for (const auto &[first, last] : finder.pairs) {
    if (first->getType().getCanonicalType() != last->getType().getCanonicalType()) continue;
    if (out.count(first) || (out.count(last) && out.at(last) != first))
      fail(last->getLocation(), "'" + last->getNameAsString() + "' is compared with positions in more than one array");
    out[last] = first;
  }
  return out;
}

// `last` of a range (rangeEnds) as a pointer local into `first`'s array, at
// `last - first` (read once, on entry, where `first` is at the array's
// start even when the body moves it).
void Lowering::bindRangeEnd(const ParmVarDecl *last, const ParmVarDecl *first, Env &env) {
  const ir::Expr array = ptrBase_.count(first) ? ptrBase_.at(first) : env.at(first);
  if (!array->is<ir::Var>())
    fail(last->getLocation(), "'" + last->getNameAsString() + "' ends a range that begins at '" +
                                  first->getNameAsString() + "', which is not supported here");
  const std::string offset = names_.fresh(last->getNameAsString() + "_at");
  // (spelled with the parameters' names, which the gradient's parameters keep)
  stagedBinds_.push_back({offset, ir::Opaque::make("static_cast<long>(" + last->getNameAsString() + " - " +
                                                       first->getNameAsString() + ")",
                                                   {}, ir::Type::i64(), /*read=*/true)});
  ptrBase_[last] = array;
  env[last] = ir::Var::make(offset, ir::Type::i64());
}

// Whether `def` compares or subtracts pointers or iterators: a helper taking
// a range (`template <class It> f(It first, It last)`) is lowered into its
// caller, where its two ends are known to point into one array.
bool Lowering::comparesPointers(const FunctionDecl *def) {
  if (!def->getBody() || std::none_of(def->param_begin(), def->param_end(), [](const ParmVarDecl *p) {
        return p->getType()->isPointerType() || iteratorKind(p->getType()) != IteratorKind::None;
      }))
    return false;
  PointerComparisons finder;
  finder.TraverseStmt(def->getBody());
  return finder.found;
}

// Whether `def`'s body moves its pointer parameter `p` (`x++` on a
// parameter `const double* x`): then `p` is a pointer local initialised
// with the argument (see bindMovedPointer).
bool Lowering::movesPointer(const FunctionDecl *def, const ParmVarDecl *p) {
  if ((!p->getType()->isPointerType() && iteratorKind(p->getType()) == IteratorKind::None) || !def->getBody()) return false;
  PointerMoves finder(p);
  finder.TraverseStmt(def->getBody());
  return finder.found;
}

// A moved pointer parameter as a pointer local: it keeps the array of the
// view `arg` for good, and its offset (the view's, 0 for a whole array)
// is an i64 SSA local, moved like any pointer local's (lowerPointerAssignment).
void Lowering::bindMovedPointer(const ParmVarDecl *p, const ir::Expr &arg, Env &env, Binds &binds) {
  ptrBase_[p] = ir::rootArray(arg);
  ir::Expr offset = ir::viewOffset(arg);
  if (offset->is<ir::Const>()) {
    env[p] = offset;
    return;
  }
  std::string n = names_.fresh(p->getNameAsString() + "_offset");
  binds.push_back({n, offset});
  env[p] = ir::Var::make(n, ir::Type::i64());
}

// `*p++`, `*--p` inside an expression on a pointer local: the increment is
// a let of the statement (side_effects.cpp), the value the view at the old
// (`p++`) or new (`++p`) offset.
ir::Expr Lowering::lowerPointerIncDec(const UnaryOperator *u, Env &env) {
  const auto *d = dyn_cast<DeclRefExpr>(u->getSubExpr()->IgnoreParens());
  const auto *vd = d ? dyn_cast<VarDecl>(d->getDecl()) : nullptr;
  auto base = vd ? ptrBase_.find(vd) : ptrBase_.end();
  if (base == ptrBase_.end()) return nullptr;
  ir::Expr array = reseated_.count(vd) ? reseatedArray(vd, env, u->getExprLoc()) : base->second;
  ir::Expr offset = lowerSideEffect(u, env);
  return ir::View::make(array, offset);
}

// `a + k`, `k + a`, `a - k`, `&a[k]`, `c ? p : q` (one array): the view they
// denote; null when `x` is none of these.
ir::Expr Lowering::lowerPointerExpr(const Expr *x, Env &env) {
  SourceLocation loc = x->getExprLoc();
  if (const auto *b = dyn_cast<BinaryOperator>(x); b && b->isAdditiveOp()) {
    const Expr *ptr = b->getLHS(), *idx = b->getRHS();
    if (!ptr->getType()->isPointerType() && !ptr->getType()->isArrayType()) std::swap(ptr, idx);
    if (!ptr->getType()->isPointerType() && !ptr->getType()->isArrayType()) return nullptr;
    if (idx->getType()->isPointerType()) return nullptr; // p - q is an integer
    ir::Expr k = lowerIndexExpr(idx, env);
    if (b->getOpcode() == BO_Sub) k = ir::Prim::make(ir::Op::Neg, {k});
    return ir::View::make(lowerArrayRef(ptr, env), k);
  }
  if (const auto *u = dyn_cast<UnaryOperator>(x); u && u->getOpcode() == UO_AddrOf) {
    ir::Expr a, i;
    const Expr *sub = u->getSubExpr()->IgnoreParens();
    if (isa<MemberExpr>(sub)) fail(loc, "pointers to struct members are not supported (pass the element, or index the array)");
    if (ir::Expr cell = cellAddress(sub, env)) return cell; // &r (address_taken.cpp)
    if (!elementRef(sub, env, a, i)) {
      if (const auto *d = dyn_cast<DeclRefExpr>(sub->IgnoreParenImpCasts()); d && !d->getType()->isArrayType())
        fail(loc, "pointers to this variable are not supported ('&" + d->getDecl()->getNameAsString() +
                      "'; pointers are views into arrays, '&a[k]', 'a + k', or point to a local number or struct)");
      fail(loc, "taking the address of this expression is not supported (only of array elements: '&a[k]')");
    }
    if (a->type->elem()->isArray()) fail(loc, "pointers to rows of arrays of arrays are not supported");
    return ir::View::make(a, i);
  }
  if (const auto *c = dyn_cast<ConditionalOperator>(x)) {
    ir::Expr cond = toBool(lowerExpr(c->getCond(), env));
    ir::Expr t = lowerArrayRef(c->getTrueExpr(), env), f = lowerArrayRef(c->getFalseExpr(), env);
    if (!ir::alphaEqual(ir::rootArray(t), ir::rootArray(f)))
      fail(loc, "a pointer into different arrays on different paths is not supported (index each array instead)");
    return ir::View::make(ir::rootArray(t), ir::If::make(cond, ir::viewOffset(t), ir::viewOffset(f)));
  }
  return nullptr;
}

// `T* p = <view>;`: the view's array is p's for good; its offset is p's
// SSA value.
ir::Expr Lowering::lowerPointerLocal(const VarDecl *vd, Env &env, const Tail &k) {
  const Expr *init = vd->getInit();
  SourceLocation loc = vd->getLocation();
  if (!init) fail(loc, "a pointer local must be initialised with a pointer into an array ('const double* p = a + k')");
  const Expr *x = init->IgnoreParenImpCasts();
  if (isNullPointer(x, ctx_)) fail(x->getBeginLoc(), "null pointers are not supported (a pointer must point into an array)");
  if (const auto *c = dyn_cast<ExplicitCastExpr>(x)) x = c->getSubExpr()->IgnoreParenImpCasts();
  if (isa<CXXNewExpr>(x)) return lowerNewArray(vd, cast<CXXNewExpr>(x), env, k);
  const auto *call = dyn_cast<CallExpr>(x);
  const FunctionDecl *callee = call ? call->getDirectCallee() : nullptr;
  if (callee && callee->getIdentifier() &&
      llvm::is_contained({"malloc", "calloc", "realloc", "aligned_alloc"}, callee->getName()))
    fail(x->getBeginLoc(), "'" + callee->getNameAsString() + "' is not supported (use 'new T[n]' or a local 'std::vector<double> v(n)')");
  if (vd->getType()->isPointerType() && vd->getType()->getPointeeType()->isPointerType())
    fail(loc, "pointers to pointers are not supported ('" + typeStr(vd->getType()) + "')");
  Binds pre; // `const double* r = row(a, i, n);`: an inlined helper's lets
  ir::Expr view;
  {
    EffectScope scope(*this, &pre);
    view = lowerArrayRef(init, env);
  }
  const ir::Expr &base = ir::rootArray(view);
  if (!base->is<ir::Var>() && !base->is<ir::Index>())
    fail(loc, "this pointer does not point into a named array");
  ptrBase_[vd] = base;
  noteReseats(vd, base, env); // (made to point into other arrays later: reseated_pointers.cpp)
  std::string n = names_.fresh(vd->getNameAsString() + "_offset");
  env[vd] = ir::Var::make(n, ir::Type::i64());
  ir::Expr offset = ir::viewOffset(view);
  ir::Expr body = k(env);
  return wrap(pre, ir::Let::make(n, offset, body));
}

// `T* p = new T[n];` (or `new T[n]()`): a local array of n zero elements
// (as `std::vector<T> p(n)`), which p points into; `delete[] p` is nothing.
ir::Expr Lowering::lowerNewArray(const VarDecl *vd, const CXXNewExpr *ne, Env &env, const Tail &k) {
  SourceLocation loc = ne->getBeginLoc();
  if (!ne->isArray() || !ne->getArraySize()) fail(loc, "'new' of a single object is not supported (use 'new T[n]' or a local variable)");
  if (ne->hasInitializer() && !isa<CXXScalarValueInitExpr>(ne->getInitializer()) &&
      !isa<ImplicitValueInitExpr>(ne->getInitializer()))
    if (const auto *il = dyn_cast<InitListExpr>(ne->getInitializer()); !il || il->getNumInits() != 0)
      fail(loc, "'new[]' with initial values is not supported (assign the elements after it)");
  if (ne->getNumPlacementArgs() != 0) fail(loc, "placement 'new' is not supported");
  ir::TypeP et = typeOf(ne->getAllocatedType().getUnqualifiedType(), loc);
  if (!et->isScalar() && !et->isStruct()) fail(loc, "'new[]' of this element type is not supported");
  LocalArrayInit start;
  start.size = lowerIndexExpr(*ne->getArraySize(), env);
  return bindLocalArray(vd, et, false, start, env, [&](Env &e2) {
    ptrBase_[vd] = e2.at(vd);
    std::string n = names_.fresh(vd->getNameAsString() + "_offset");
    e2[vd] = ir::Var::make(n, ir::Type::i64());
    ir::Expr body = k(e2);
    return ir::Let::make(n, ir::Const::makeInt(0), body);
  });
}

// `p++`, `--p`, `p += d`, `p -= d`, `p = q + k` on a pointer local: its new
// offset. False when `lhs` is not a pointer local.
bool Lowering::lowerPointerAssignment(const Expr *e, const Expr *lhs, const Expr *rhs, Env &env,
                                      const VarDecl *&root, ir::Expr &newOffset) {
  const auto *d = dyn_cast<DeclRefExpr>(lhs->IgnoreParens());
  const auto *vd = d ? dyn_cast<VarDecl>(d->getDecl()) : nullptr;
  std::vector<int> rest;
  if (!vd) vd = viewLeafVar(lhs, rest, true); // `s.w = ...`: a member of a struct of views
  SourceLocation loc = e->getExprLoc();
  if (vd && leafDecls_.count(vd) && !ptrBase_.count(vd)) { // its first assignment: the array it points into
    const auto *b = dyn_cast<BinaryOperator>(e);
    if (!b || b->getOpcode() != BO_Assign)
      fail(loc, "member '" + vd->getNameAsString() + "' is moved before it is made to point into an array");
    if (isNullPointer(rhs->IgnoreParenImpCasts(), ctx_)) fail(loc, "null pointers are not supported (a pointer must point into an array)");
    ir::Expr view = lowerArrayRef(rhs, env);
    const ir::Expr &vb = ir::rootArray(view);
    // (a row `A[i]` is refused: the first assignment may sit in a scope where `i` is, the member outlives it)
    if (!vb->is<ir::Var>())
      fail(loc, "a member pointer assigned after its declaration must point into a named array (not into a row of an array of arrays)");
    ptrBase_[vd] = vb;
    root = vd;
    newOffset = ir::viewOffset(view);
    return true;
  }
  auto base = vd ? ptrBase_.find(vd) : ptrBase_.end();
  if (base == ptrBase_.end()) return false;
  ir::Expr cur = env.at(vd);
  root = vd;
  if (const auto *u = dyn_cast<UnaryOperator>(e)) {
    newOffset = ir::Prim::make(u->isIncrementOp() ? ir::Op::Add : ir::Op::Sub, {cur, ir::Const::makeInt(1)});
    return true;
  }
  const auto *b = cast<BinaryOperator>(e);
  if (b->getOpcode() == BO_AddAssign || b->getOpcode() == BO_SubAssign) {
    newOffset = ir::Prim::make(b->getOpcode() == BO_AddAssign ? ir::Op::Add : ir::Op::Sub, {cur, lowerIndexExpr(rhs, env)});
    return true;
  }
  if (b->getOpcode() != BO_Assign) fail(loc, "this operator on a pointer is not supported");
  newOffset = pointerReassignment(vd, rhs, env, loc);
  return true;
}

// `p = rhs` on a pointer (or iterator) local: its new offset, where rhs
// points into p's array (or one of the arrays it is reseated between).
ir::Expr Lowering::pointerReassignment(const VarDecl *vd, const Expr *rhs, Env &env, SourceLocation loc) {
  if (isNullPointer(rhs->IgnoreParenImpCasts(), ctx_)) fail(loc, "null pointers are not supported (a pointer must point into an array)");
  ir::Expr view = lowerArrayRef(rhs, env);
  if (reseated_.count(vd)) { // one of the arrays it may point into (reseated_pointers.cpp)
    reseat(vd, view, env, loc);
    return ir::viewOffset(view);
  }
  if (!ir::alphaEqual(ir::rootArray(view), ptrBase_.at(vd)))
    fail(loc, "pointer '" + vd->getNameAsString() +
                  "' is made to point into another array than the one it was initialised with, one not known "
                  "where it is declared (not supported: a pointer local points into its first array, or into "
                  "arrays declared before it)");
  return ir::viewOffset(view);
}

// `p < q`, `p != end`, `end - p` on pointers into one array: the offsets'.
ir::Expr Lowering::lowerPointerBinary(const BinaryOperator *b, Env &env) {
  const Expr *l = b->getLHS(), *r = b->getRHS();
  if (!l->getType()->isPointerType() || !r->getType()->isPointerType()) return nullptr;
  if (ir::Expr same = sameObject(b, env)) return same; // `this != &other` (owned_buffers.cpp)
  SourceLocation loc = b->getExprLoc();
  if (isNullPointer(l->IgnoreParenImpCasts(), ctx_) || isNullPointer(r->IgnoreParenImpCasts(), ctx_))
    fail(loc, "null pointers are not supported (a pointer must point into an array)");
  return positionOp(b->getOpcode(), l, r, env, loc); // (iterators.cpp)
}

} // namespace unfad::frontend
