// Statements: blocks (lowerSeq, in continuation style), returns, local
// declarations, assignments to variables and struct fields, `if` (joining
// through a tuple, or with the rest of the block in both branches when a
// branch jumps). Loops are in loops.cpp.
#include "lowering.h"

#include <clang/AST/DeclCXX.h>
#include <clang/Lex/Lexer.h>

#include <algorithm>

namespace unfad::frontend {

using namespace clang;

namespace {


// True when `s` leaves the statement it is part of: a `return` (when
// `returns`), or a `break`/`continue` of the enclosing loop or switch (not of
// a loop nested in `s`; a nested switch only keeps its `break`s).
bool jumps(const Stmt *s, bool nestedLoop, bool nestedSwitch, bool returns) {
  if (!s) return false;
  if (returns && isa<ReturnStmt>(s)) return true;
  if (!nestedLoop && !nestedSwitch && isa<BreakStmt>(s)) return true;
  if (!nestedLoop && isa<ContinueStmt>(s)) return true;
  if (isa<LambdaExpr>(s)) return false;
  bool loop = nestedLoop || isa<ForStmt>(s) || isa<WhileStmt>(s) || isa<DoStmt>(s) || isa<CXXForRangeStmt>(s);
  bool sw = nestedSwitch || isa<SwitchStmt>(s);
  for (const Stmt *c : s->children())
    if (jumps(c, loop, sw, returns)) return true;
  return false;
}
bool containsJump(const Stmt *s) { return jumps(s, false, false, true); }

// A `break` or `continue` (of a loop `s` is in, not one inside `s`).
bool containsLoopJump(const Stmt *s) { return jumps(s, false, false, false); }

} // namespace

namespace {

// The variable an lvalue designates (through fields and subscripts), or null.
const VarDecl *designated(const Expr *e) {
  e = e->IgnoreParenImpCasts();
  if (const auto *m = dyn_cast<MemberExpr>(e)) return m->isArrow() ? nullptr : designated(m->getBase());
  if (const auto *a = dyn_cast<ArraySubscriptExpr>(e)) return designated(a->getBase());
  if (const auto *oc = dyn_cast<CXXOperatorCallExpr>(e); oc && oc->getOperator() == OO_Subscript)
    return designated(oc->getArg(0));
  if (const auto *mc = dyn_cast<CXXMemberCallExpr>(e)) return designated(mc->getImplicitObjectArgument()); // v.at(i)
  if (const auto *d = dyn_cast<DeclRefExpr>(e)) return dyn_cast<VarDecl>(d->getDecl());
  return nullptr;
}

} // namespace

// Whether `body` may write `v`: assigns it, increments it, takes its
// address, binds a non-const reference to it or passes it to one.
bool writes(const Stmt *s, const VarDecl *v) {
  if (!s) return false;
  auto names = [v](const Expr *e) { return e && designated(e) == v; };
  if (const auto *b = dyn_cast<BinaryOperator>(s); b && b->isAssignmentOp() && names(b->getLHS())) return true;
  if (const auto *u = dyn_cast<UnaryOperator>(s);
      u && (u->isIncrementDecrementOp() || u->getOpcode() == UO_AddrOf) && names(u->getSubExpr()))
    return true;
  if (const auto *c = dyn_cast<CallExpr>(s)) {
    const FunctionDecl *fd = c->getDirectCallee();
    // (a member operator's first argument is its object: `w[v]` passes v to operator[]'s parameter 0)
    const auto *om = isa<CXXOperatorCallExpr>(c) ? dyn_cast_or_null<CXXMethodDecl>(fd) : nullptr;
    const unsigned shift = om ? 1 : 0;
    if (om && c->getNumArgs() > 0 && !om->isConst() && names(c->getArg(0))) return true;
    for (unsigned k = shift; k < c->getNumArgs(); ++k) {
      if (!names(c->getArg(k))) continue;
      if (!fd || k - shift >= fd->getNumParams()) return true;
      QualType pt = fd->getParamDecl(k - shift)->getType();
      if (pt->isReferenceType() && !pt.getNonReferenceType().isConstQualified()) return true;
    }
    if (const auto *oc = dyn_cast<CXXOperatorCallExpr>(c); oc && oc->isAssignmentOp() && names(oc->getArg(0))) return true;
    if (const auto *mc = dyn_cast<CXXMemberCallExpr>(c))
      if (const CXXMethodDecl *m = mc->getMethodDecl(); m && !m->isConst() && names(mc->getImplicitObjectArgument()))
        return true; // (v.push_back(x), and v.at(i) as it may be written)
  }
  if (const auto *d = dyn_cast<DeclStmt>(s))
    for (const Decl *x : d->decls())
      if (const auto *r = dyn_cast<VarDecl>(x); r && r->getType()->isReferenceType() &&
                                                !r->getType().getNonReferenceType().isConstQualified() && r->getInit() &&
                                                names(r->getInit()))
        return true;
  for (const Stmt *c : s->children())
    if (writes(c, v)) return true;
  return false;
}

namespace {

// Whether the object the argument `e` designates may be written in `body`
// (null: unknown) after a reference to it is taken.
bool mayBeModified(const Expr *e, const Stmt *body) {
  if (!body) return true;
  const VarDecl *v = designated(e);
  return v && !v->getType().getNonReferenceType().isConstQualified() && writes(body, v);
}

} // namespace

bool isTrivialStructAssign(const CXXOperatorCallExpr *oc) {
  if (oc->getOperator() != OO_Equal || oc->getNumArgs() != 2) return false;
  const auto *m = dyn_cast_or_null<CXXMethodDecl>(oc->getDirectCallee());
  return m && (((m->isCopyAssignmentOperator() || m->isMoveAssignmentOperator()) && m->isTrivial()) ||
               tupleLikeAssign(oc) || // a std::pair or std::tuple (pairs_tuples.cpp)
               optionalAssign(oc) ||  // o = v, o = std::nullopt (optionals.cpp)
               bitElement(oc->getArg(0))); // mask[i] = b of a std::vector<bool> (arrays.cpp)
}

ir::Expr wrap(const Binds &binds, ir::Expr body) {
  for (auto it = binds.rbegin(); it != binds.rend(); ++it) body = ir::Let::make(it->first, it->second, body);
  return body;
}

// A local `const T& r = init;` that is read as a copy of what it refers
// to (or as the array it names): const, and bound to a temporary, to an
// array, or to a const object (an element of a const array, a const
// parameter): nothing in the function can change it while r lives.
bool Lowering::constReferenceLocal(const VarDecl *vd) {
  QualType pt = vd->getType().getNonReferenceType();
  const Expr *init = vd->getInit();
  if (!vd->getType()->isLValueReferenceType() || !pt.isConstQualified() || !init) return false;
  if (ArrayInfo ai; arrayInfo(pt, ai, SourceLocation())) return true;
  const Expr *x = init->IgnoreParens();
  if (const auto *c = dyn_cast<ExprWithCleanups>(x)) x = c->getSubExpr()->IgnoreParens();
  if (isa<MaterializeTemporaryExpr>(x)) return true;
  if (const auto *c = dyn_cast<ImplicitCastExpr>(x); c && c->getCastKind() == CK_NoOp) x = c->getSubExpr()->IgnoreParens();
  if (!x->isLValue() || !x->getType().isConstQualified()) return false;
  // `const double& m = std::max(a, b)`: a copy only if what it may name does not change
  if (const auto *call = dyn_cast<CallExpr>(x)) {
    const auto *fn = dyn_cast_or_null<FunctionDecl>(vd->getParentFunctionOrMethod());
    for (const Expr *arg : call->arguments())
      if (mayBeModified(arg, fn ? fn->getBody() : nullptr)) return false;
  }
  return true;
}

ir::Expr Lowering::bindAndContinue(const VarDecl *vd, const ir::Expr &value, const Seq *rest, Env &env, const Tail &tail) {
  if (cells_.count(vd)) // (a variable in memory: address_taken.cpp)
    return effect(storeCell(vd, env, value), [&] { return lowerSeq(rest, env, tail); });
  std::string n = names_.fresh(vd->getName().empty() ? "v" : vd->getNameAsString());
  env[vd] = ir::Var::make(n, value->type);
  ir::Expr body = lowerSeq(rest, env, tail);
  return ir::Let::make(n, value, body);
}

ir::Expr Lowering::readPath(ir::Expr v, const std::vector<int> &path) {
  for (int i : path) v = ir::Proj::make(v, i);
  return v;
}

ir::Expr Lowering::updatePath(const ir::Expr &cur, const std::vector<int> &path, size_t k, const ir::Expr &val) {
  if (k == path.size()) return convert(val, cur->type);
  std::vector<ir::Expr> es;
  for (size_t i = 0; i < cur->type->elems.size(); ++i) {
    ir::Expr p = ir::Proj::make(cur, int(i));
    es.push_back(int(i) == path[k] ? updatePath(p, path, k + 1, val) : p);
  }
  return ir::Tuple::makeStruct(cur->type, es);
}

ir::Expr Lowering::lowerSeq(const Seq *s, Env env, const Tail &tail) {
  while (s && s->b == s->e) s = s->next;
  if (!s) return tail(env);
  const Stmt *st = *s->b;
  Seq restNode{s->b + 1, s->e, s->next};
  const Seq *rest = &restNode;
  SourceLocation loc = st->getBeginLoc();
  // a use of a pointer into one of several arrays (reseated_pointers.cpp)
  if (const VarDecl *p = reseatedUse(st, env)) return lowerPerArray(st, p, rest, env, tail);

  // helpers returning arrays, lowered before the statement (returned_arrays.cpp)
  if (const Stmt *part = hoistablePart(st)) {
    std::vector<const CallExpr *> calls;
    collectReturnedArrays(part, calls);
    if (!calls.empty()) return hoistReturnedArrays(part, env, [&](Env &e) { return lowerSeq(s, e, tail); });
  }
  if (const auto *cs = dyn_cast<CompoundStmt>(st)) {
    Seq inner{cs->body_begin(), cs->body_end(), rest};
    return lowerSeq(&inner, env, tail);
  }
  if (isa<NullStmt>(st)) return lowerSeq(rest, env, tail);
  if (ir::Expr r; lowerBufferStmt(st, rest, env, tail, r)) return r; // data_ = new T[n] (owned_buffers.cpp)
  if (const auto *rs = dyn_cast<ReturnStmt>(st)) return lowerReturn(rs, env);
  if (const auto *ds = dyn_cast<DeclStmt>(st)) return lowerDeclStmt(ds, rest, env, tail);
  if (const auto *is = dyn_cast<IfStmt>(st)) return lowerIf(is, rest, env, tail);
  if (const auto *fs = dyn_cast<ForStmt>(st)) return lowerFor(fs, rest, env, tail);
  if (const auto *rs = dyn_cast<CXXForRangeStmt>(st)) return lowerRangeFor(rs, rest, env, tail);
  if (const auto *ws = dyn_cast<WhileStmt>(st)) {
    return lowerWhile(ws->getBody(), ws->getCond(), nullptr, false, rest, env, tail, ws->getConditionVariableDeclStmt());
  }
  if (const auto *ds = dyn_cast<DoStmt>(st)) {
    return lowerWhile(ds->getBody(), ds->getCond(), nullptr, true, rest, env, tail);
  }
  if (isa<BreakStmt>(st) || isa<ContinueStmt>(st)) {
    if (loops_.empty()) fail(loc, "'break' outside a loop is not supported");
    return isa<BreakStmt>(st) ? loops_.back()->brk(env) : loops_.back()->cont(env);
  }
  if (const auto *ss = dyn_cast<SwitchStmt>(st)) return lowerSwitch(ss, rest, env, tail);
  if (const auto *as = dyn_cast<AttributedStmt>(st)) { // [[fallthrough]];, [[likely]] ...
    const Stmt *sub = as->getSubStmt();
    Seq inner{&sub, &sub + 1, rest};
    return lowerSeq(&inner, env, tail);
  }
  if (const auto *e = dyn_cast<Expr>(st)) {
    if (const CXXThrowExpr *te = thrownBy(e)) return lowerThrowStmt(te, rest, env, tail); // (exceptions.cpp)
    if (printingStmt(e)) return lowerPrintStmt(e, rest, env, tail);                      // (printing.cpp)
    return lowerExprStmt(e, rest, env, tail);
  }
  return lowerUnsupportedStmt(st);
}

ir::Expr Lowering::lowerReturn(const ReturnStmt *rs, Env &env) {
  SourceLocation loc = rs->getBeginLoc();
  // in an inlined helper: its result, then the caller's variables it assigns
  ir::TypeP rt = inline_ ? inline_->result : result_;
  Binds pre;
  ir::Expr v;
  if (!rs->getRetValue()) {
    if (!rt->isUnit()) fail(loc, "'return' without a value");
    v = ir::Tuple::make({});
  } else if (inline_ && inline_->returnsThis) { // `return *this;` (classes.cpp)
    if (!thisDecl(rs->getRetValue(), true)) fail(loc, "a method returning a reference must return '*this'");
    v = ir::Tuple::make({});
  } else if (inline_ && inline_->pointer) {
    v = lowerPointerReturn(rs->getRetValue(), env, pre);
  } else if (inline_ && inline_->reference) { // (returned_references.cpp)
    v = lowerReferenceReturn(rs->getRetValue(), env, pre);
  } else {
    v = convert(lowerFull(rs->getRetValue(), env, pre), rt);
  }
  if (inline_) v = packInlined(v, env);
  else if (onExit_) v = onExit_(v, env); // (the marked function's own return)
  return wrap(pre, onReturn_ ? onReturn_(v, env) : v);
}

ir::Expr Lowering::lowerDeclStmt(const DeclStmt *ds, const Seq *rest, Env &env, const Tail &tail) {
  // one declaration at a time: lower the first, then the remainder
  std::vector<const VarDecl *> vars;
  for (const Decl *d : ds->decls()) {
    if (const auto *vd = dyn_cast<VarDecl>(d)) {
      if (vd->isStaticLocal()) {
        if (vd->getType().isConstQualified() || vd->isConstexpr()) {
          // a constant scalar is read as a constant; a table, or a value computed
          // the same at every call (`std::sqrt(2.0)`), is lowered as a local const
          // (constant_tables.cpp)
          bool constant = vd->getInitializingDeclaration() && vd->getInitializingDeclaration()->evaluateValue();
          ArrayInfo ai;
          bool table = arrayInfo(vd->getType(), ai, SourceLocation());
          if (constant && !table) continue;
          if (!constant && !fixedInitializer(vd->getInit()))
            fail(vd->getLocation(), "static local '" + vd->getNameAsString() + "' keeps the value its first call computed "
                                    "from that call's values, which is not supported (make it a plain local)");
          vars.push_back(vd);
          continue;
        }
        fail(vd->getLocation(), std::string(vd->getTSCSpec() != TSCS_unspecified ? "thread_local" : "static local") +
                                    " variables are not supported ('" + vd->getNameAsString() + "')");
      }
      if (vd->hasExternalStorage()) fail(vd->getLocation(), "local 'extern' declarations are not supported");
      if (vd->getType().isVolatileQualified()) fail(vd->getLocation(), "volatile values are not supported");
      vars.push_back(vd);
      if (const auto *dd = dyn_cast<DecompositionDecl>(vd)) // then its bindings' references (pairs_tuples.cpp)
        for (const BindingDecl *b : dd->bindings())
          if (const VarDecl *h = b->getHoldingVar()) {
            holdingVars_.insert(h);
            vars.push_back(h);
          }
    } else if (isa<RecordDecl>(d)) {
      continue; // local types are rejected where used
    }
  }
  return lowerVarDecls(vars, 0, rest, env, tail);
}

// The declarations vars[k...] as a chain of lets, then the rest.
ir::Expr Lowering::lowerVarDecls(const std::vector<const VarDecl *> &vars, size_t k, const Seq *rest, Env &env,
                                 const Tail &tail) {
  if (k == vars.size()) return lowerSeq(rest, env, tail);
  const VarDecl *vd = vars[k];
  passiveAliases_.erase(vd); // (what an earlier inlining of its helper bound it to; passive_data.cpp)
  if (std::vector<const CallExpr *> calls; vd->getInit() && (collectReturnedArrays(vd->getInit(), calls), !calls.empty()))
    return hoistReturnedArrays(vd->getInit(), env, [&](Env &e) { return lowerVarDecls(vars, k, rest, e, tail); }, vd);
  auto next = [&](Env &e2) { return lowerVarDecls(vars, k + 1, rest, e2, tail); };
  if (holdingVars_.count(vd)) return lowerHoldingVar(vd, env, next); // auto [a, b] = pair (pairs_tuples.cpp)
  if (!isa<ParmVarDecl>(vd) && isText(vd->getType())) {
    sawTextParams_ = true;
    return lowerTextLocal(vd, env, next); // std::string kind = ... (text_params.cpp)
  }
  if (passiveLocal(vd)) return lowerPassiveLocal(vd, env, next); // const Obs& o = d.obs[i]; (passive_data.cpp)
  if (const auto *rd = vd->getType().getNonReferenceType()->getAsCXXRecordDecl(); declaredPassiveClass(rd))
    fail(vd->getLocation(), "'" + vd->getNameAsString() + "' is an object of '" + rd->getNameAsString() +
                                "', a class of passive data here (a marked function's parameter of it, left out of "
                                "UNFAD_GRADIENT_WRT, has members that are not public), built from values of the "
                                "function: only names of parts of the passive data are supported");
  if (addressTaken(vd)) return lowerCellLocal(vd, env, next);     // double r; polar(x, y, &r, &th); (address_taken.cpp)
  if (minmaxElementInit(vd)) return lowerMinmaxElementLocal(vd, env, next); // (iterators.cpp)
  if (minmaxRefsInit(vd)) return lowerMinmaxRefs(vd, env, next);             // (returned_references.cpp)
  if (isReferenceWrapper(vd->getType()) && !vd->getType()->isReferenceType()) return lowerWrapperLocal(vd, env, next);
  if (closureRecord(vd->getType())) return lowerLambdaLocal(vd, env, next);
  if (isStdFunction(vd->getType())) return lowerStdFunctionLocal(vd, env, next); // (std_function.cpp)
  if (isViewStruct(vd->getType())) return lowerViewStructLocal(vd, env, next);
  if (QualType pe; pointerVector(vd->getType(), pe)) return lowerViewVector(vd, pe, env, next); // (view_struct_vectors.cpp)
  if (ArrayInfo ai; arrayInfo(vd->getType(), ai, SourceLocation()) && isViewStruct(ai.elem))
    return lowerViewStructArray(vd, ai, env, next);
  if (vd->getType()->isReferenceType() && !constReferenceLocal(vd))
    return lowerReferenceLocal(vd, env, [&](Env &e2) { return lowerVarDecls(vars, k + 1, rest, e2, tail); });
  if (vd->getType()->isReferenceType()) {
    // an array: an alias (`const auto& row = X[i]`); a value: a copy,
    // the same thing since nothing can change what it refers to
    QualType pt = vd->getType().getNonReferenceType();
    if (ArrayInfo ai; arrayInfo(pt, ai, vd->getLocation())) {
      bindArrayAlias(vd, vd->getInit(), env);
      return lowerVarDecls(vars, k + 1, rest, env, tail);
    }
    ir::TypeP t = typeOf(pt.getUnqualifiedType(), vd->getLocation());
    std::string n = names_.fresh(decompositionName(vd));
    ir::Expr init = convert(lowerExpr(vd->getInit(), env), t);
    env[vd] = ir::Var::make(n, t);
    ir::Expr body = lowerVarDecls(vars, k + 1, rest, env, tail);
    return ir::Let::make(n, init, body);
  }
  if (ArrayInfo ai; arrayInfo(vd->getType(), ai, vd->getLocation()))
    return lowerLocalArray(vd, ai, env, [&](Env &e3) { return lowerVarDecls(vars, k + 1, rest, e3, tail); });
  ir::TypeP t = typeOf(vd->getType().getUnqualifiedType(), vd->getLocation());
  Binds pre; // `int j = i++;`, `double t = (s += x);`
  ir::Expr init = vd->getInit() ? convert(lowerFull(vd->getInit(), env, pre), t) : ir::Const::zero(t);
  std::string n = names_.fresh(decompositionName(vd));
  env[vd] = ir::Var::make(n, t);
  ir::Expr body = lowerVarDecls(vars, k + 1, rest, env, tail);
  return wrap(pre, ir::Let::make(n, init, body));
}

// An expression statement: a store, an assignment, or a value computed for
// its effects (or for nothing).
// The side effects inside it (`s += x[k++]`, `a = b = 0`) are lets before it.
ir::Expr Lowering::lowerExprStmt(const Expr *e, const Seq *rest, Env &env, const Tail &tail) {
  SourceLocation loc = e->getBeginLoc();
  // assert(...) has no effect on the value or its derivatives
  if (loc.isMacroID() && Lexer::getImmediateMacroName(loc, sm_, ctx_.getLangOpts()) == "assert")
    return lowerSeq(rest, env, tail);
  const Expr *x = e->IgnoreParens();
  if (const auto *d = dyn_cast<CXXDeleteExpr>(x)) { // of a `new[]` buffer: nothing to do
    const auto *r = dyn_cast<DeclRefExpr>(d->getArgument()->IgnoreParenImpCasts());
    const auto *vd = r ? dyn_cast<VarDecl>(r->getDecl()) : nullptr;
    if (!d->isArrayForm() || !vd || !ptrBase_.count(vd))
      fail(d->getBeginLoc(), "this 'delete' is not supported (only 'delete[] p' of a local 'p = new T[n]')");
    checkDelete(d, vd);
    return lowerSeq(rest, env, tail);
  }
  if (ir::Expr filled; lowerMemberArrayFill(e, rest, env, tail, filled)) return filled; // d_.fill(v) (member_arrays.cpp)
  if (ir::Expr grown; lowerGrowCall(e, rest, env, tail, grown)) return grown; // v.push_back(x), ...
  if (ir::Expr sized; lowerOutputResize(e, rest, env, tail, sized)) return sized; // out.resize(n) (output_vectors.cpp)
  if (ir::Expr assigned; lowerReturnedArrayAssign(e, rest, env, tail, assigned)) return assigned; // a = f(x)
  if (ir::Expr assigned; lowerObjectAssign(e, rest, env, tail, assigned)) return assigned; // c = m (assigned_objects.cpp)
  if (ir::Expr tied; lowerTieAssign(e, rest, env, tail, tied)) return tied; // std::tie(a, b) = f(x) (pairs_tuples.cpp)
  Binds pre;
  ir::Expr eff, value, v;
  const VarDecl *root = nullptr;
  {
    EffectScope scope(*this, &pre);
    checkSequenced(e);
    if (const VarDecl *through = nullptr; const RefChoice *ch = writtenChoice(e, through)) { // m += x, m one of two
      lowerChoiceWrite(e, through, *ch, env);
    } else if (!lowerArrayStore(e, env, eff) && !lowerAssignment(e, env, root, value)) {
      const Expr *x = e->IgnoreParens();
      if (const auto *c = dyn_cast<CStyleCastExpr>(x); c && c->getCastKind() == CK_ToVoid) x = c->getSubExpr();
      else if (const auto *c = dyn_cast<CXXStaticCastExpr>(x); c && c->getCastKind() == CK_ToVoid) x = c->getSubExpr();
      // a value computed for nothing: lower it anyway so unsupported constructs are reported
      v = lowerExpr(x, env);
    }
  }
  if (eff) return wrap(pre, effect(eff, [&] { return lowerSeq(rest, env, tail); }));
  if (root) return wrap(pre, bindAndContinue(root, value, rest, env, tail));
  if (v && ir::mayWrite(v)) return wrap(pre, effect(v, [&] { return lowerSeq(rest, env, tail); }));
  return wrap(pre, lowerSeq(rest, env, tail));
}

ir::Expr Lowering::lowerUnsupportedStmt(const Stmt *st) {
  SourceLocation loc = st->getBeginLoc();
  if (isa<GotoStmt>(st) || isa<IndirectGotoStmt>(st)) fail(loc, "'goto' is not supported");
  if (isa<LabelStmt>(st)) fail(loc, "labels and 'goto' are not supported");
  if (isa<CXXTryStmt>(st)) fail(loc, "exceptions are not supported ('try' statement)");
  if (isa<AsmStmt>(st)) fail(loc, "inline assembly is not supported");
  if (isa<CoroutineBodyStmt>(st) || isa<CoreturnStmt>(st)) fail(loc, "coroutines are not supported");
  fail(loc, std::string("statement '") + st->getStmtClassName() + "' is not supported");
}

const VarDecl *Lowering::assignedRoot(const Expr *lhs, std::vector<int> &path, bool diagnose) {
  lhs = lhs->IgnoreParens();
  if (const Expr *u = unwrapReference(lhs)) return assignedRoot(u, path, diagnose); // w.get() = v, std::ref(x)
  if (const auto *c = dyn_cast<ImplicitCastExpr>(lhs)) if (c->getCastKind() == CK_NoOp) return assignedRoot(c->getSubExpr(), path, diagnose);
  if (const auto *c = dyn_cast<ImplicitCastExpr>(lhs); c && isBaseCast(c)) { // the base object (class_layout.cpp)
    const VarDecl *root = assignedRoot(c->getSubExpr(), path, diagnose);
    path.insert(path.end(), c->path_size(), 0);
    return root;
  }
  if (const VarDecl *root = nullptr; memberElementRoot(lhs, path, diagnose, root)) return root; // member_arrays.cpp
  SourceLocation loc = lhs->getExprLoc();
  if (const auto *d = dyn_cast<DeclRefExpr>(lhs)) // a structured binding: what it names (pairs_tuples.cpp)
    if (const auto *b = dyn_cast<BindingDecl>(d->getDecl()); b && b->getBinding())
      return assignedRoot(b->getBinding(), path, diagnose);
  if (unsigned index = 0; const Expr *obj = tupleGet(lhs, index)) { // std::get<I>(t) = v
    const VarDecl *root = assignedRoot(obj, path, diagnose);
    path.push_back(int(index));
    return root;
  }
  const VarDecl *self = thisDecl(lhs) ? thisDecl(lhs) : thisDecl(lhs, true); // the object of a method (classes.cpp)
  if (self || isa<DeclRefExpr>(lhs)) {
    const auto *vd = self ? self : dyn_cast<VarDecl>(cast<DeclRefExpr>(lhs)->getDecl());
    if (!vd) { if (diagnose) fail(loc, "assignment to this expression is not supported"); return nullptr; }
    if (!vd->hasLocalStorage()) {
      if (!diagnose) return nullptr;
      if (vd->isStaticLocal()) fail(loc, "writes to static local variable '" + vd->getNameAsString() + "'");
      fail(loc, "writes to global variable '" + vd->getNameAsString() + "'");
    }
    if (const RefTarget *t = refOf(vd)) { // r = ... assigns what r names
      if (!t->var) { if (diagnose) fail(loc, "assignment through reference '" + vd->getNameAsString() + "' is not supported here"); return nullptr; }
      path.insert(path.end(), t->path.begin(), t->path.end());
      return t->var;
    }
    if (holdingVars_.count(vd)) return vd; // a structured binding's own local (pairs_tuples.cpp)
    if (vd->getType()->isReferenceType() || isReferenceWrapper(vd->getType())) {
      // not bound yet (collectAssigned looks ahead into a loop body): what its initialiser names
      if (!diagnose && !isa<ParmVarDecl>(vd) && vd->getInit()) return assignedRoot(vd->getInit(), path, false);
      if (diagnose) fail(loc, "writes through reference '" + vd->getNameAsString() + "' are not supported yet");
      return nullptr;
    }
    return vd;
  }
  if (const auto *m = dyn_cast<MemberExpr>(lhs)) {
    if (const VarDecl *leaf = viewLeafVar(m, path, diagnose)) return leaf; // a member of a view struct local
    int up = 0;
    if (m->isArrow() && !thisDeclUp(m->getBase(), up)) { if (diagnose) fail(loc, "pointers are not supported yet ('->' member access)"); return nullptr; }
    const auto *f = dyn_cast<FieldDecl>(m->getMemberDecl());
    if (!f) { if (diagnose) fail(loc, "assignment to this expression is not supported"); return nullptr; }
    const VarDecl *root = assignedRoot(m->getBase(), path, diagnose);
    path.push_back(fieldIndex(f));
    return root;
  }
  if (auto it = callRefs_.find(lhs); it != callRefs_.end()) { // f(x) = ... (returned_references.cpp)
    path.insert(path.end(), it->second.path.begin(), it->second.path.end());
    return it->second.var;
  }
  if (!diagnose) return nullptr;
  if (const auto *c = dyn_cast<CallExpr>(lhs); c && c->getDirectCallee())
    fail(loc, "writes through the reference a function returns are not supported ('" +
                  c->getDirectCallee()->getNameAsString() + "'; index the array instead)");
  if (isa<ArraySubscriptExpr>(lhs)) fail(loc, "arrays are not supported yet (subscript)");
  if (const auto *u = dyn_cast<UnaryOperator>(lhs); u && u->getOpcode() == UO_Deref) fail(loc, "pointers are not supported yet");
  fail(loc, "assignment to this expression is not supported");
}

// The variables a write into `lhs` may assign: its root, or both objects
// a reference to one of two designates (`double& m = c ? a : b;`, bound or,
// looking ahead into a loop body, not yet).
std::vector<const VarDecl *> Lowering::assignedRoots(const Expr *lhs) {
  std::vector<int> path;
  if (const VarDecl *vd = assignedRoot(lhs, path, false)) return {vd};
  const Expr *x = stripNoOps(lhs);
  if (const auto *co = dyn_cast<ConditionalOperator>(x)) { // (an arm of a choice: `c ? a : (d ? b : e)`)
    std::vector<const VarDecl *> out = assignedRoots(co->getTrueExpr());
    for (const VarDecl *r : assignedRoots(co->getFalseExpr())) out.push_back(r);
    return out;
  }
  for (const MemberExpr *m; (m = dyn_cast<MemberExpr>(x)) && !m->isArrow();) x = stripNoOps(m->getBase());
  const auto *d = dyn_cast<DeclRefExpr>(x);
  const auto *vd = d ? dyn_cast<VarDecl>(d->getDecl()) : nullptr;
  return vd ? choiceRoots(vd) : std::vector<const VarDecl *>{};
}

// The objects the reference `vd` to one of two designates (none when it is
// no such reference).
std::vector<const VarDecl *> Lowering::choiceRoots(const VarDecl *vd) {
  std::vector<const VarDecl *> out;
  if (const RefTarget *t = refOf(vd)) {
    if (t->choice) addRoots(*t, out);
  } else if (vd->getType()->isReferenceType() && vd->getInit() && isa<ConditionalOperator>(stripNoOps(vd->getInit()))) {
    out = assignedRoots(vd->getInit()); // (not bound yet: a look ahead into a loop body)
  }
  return out;
}

// If `e` is an assignment-like expression, lowers it: the root variable and
// its new value. Returns false for other expressions.
bool Lowering::lowerAssignment(const Expr *e, Env &env, const VarDecl *&root, ir::Expr &newValue) {
  e = e->IgnoreParens();
  if (const auto *c = dyn_cast<ExprWithCleanups>(e)) e = c->getSubExpr()->IgnoreParens();
  if (lowerIteratorStep(e, env, root, newValue)) return true; // `++it`, `std::advance(p, k)` (iterators.cpp)
  const Expr *lhs = nullptr, *rhs = nullptr;
  ir::Op op = ir::Op::Add;
  bool compound = false, incdec = false, complexOp = false;
  int setField = -1; // z.real(v), z.imag(v) (complex_numbers.cpp)
  bool reset = false; // o.reset(), o.emplace(v) (optionals.cpp)
  if (const auto *oc = dyn_cast<CXXOperatorCallExpr>(e); oc && complexCompound(oc, op)) {
    lhs = oc->getArg(0), rhs = oc->getArg(1);
    complexOp = true;
  } else if (const auto *oc = dyn_cast<CXXOperatorCallExpr>(e); oc && complexRealAssign(oc)) {
    lhs = oc->getArg(0), rhs = oc->getArg(1);
  } else if (const auto *mc = dyn_cast<CXXMemberCallExpr>(e); mc && complexSetter(mc) >= 0) {
    lhs = mc->getImplicitObjectArgument(), rhs = mc->getArg(0);
    setField = complexSetter(mc);
  } else if (const auto *mc = dyn_cast<CXXMemberCallExpr>(e); mc && optionalReset(mc)) {
    lhs = mc->getImplicitObjectArgument(), rhs = mc->getNumArgs() == 1 ? mc->getArg(0) : nullptr;
    reset = rhs == nullptr;
  } else if (const auto *b = dyn_cast<BinaryOperator>(e); b && b->isAssignmentOp()) {
    lhs = b->getLHS(), rhs = b->getRHS();
    if (const auto *ca = dyn_cast<CompoundAssignOperator>(b)) {
      compound = true;
      switch (ca->getOpcode()) {
      case BO_AddAssign: op = ir::Op::Add; break;
      case BO_SubAssign: op = ir::Op::Sub; break;
      case BO_MulAssign: op = ir::Op::Mul; break;
      case BO_DivAssign: op = ir::Op::Div; break;
      case BO_RemAssign: op = ir::Op::Mod; break;
      default: op = bitwiseOp(ca->getOpcode()); // &= |= ^= <<= >>=
      }
    }
  } else if (const auto *u = dyn_cast<UnaryOperator>(e); u && u->isIncrementDecrementOp()) {
    lhs = u->getSubExpr();
    incdec = true;
    op = u->isIncrementOp() ? ir::Op::Add : ir::Op::Sub;
  } else if (const auto *oc = dyn_cast<CXXOperatorCallExpr>(e); oc && isTrivialStructAssign(oc)) {
    lhs = oc->getArg(0), rhs = oc->getArg(1);
  } else {
    return false;
  }
  if (isReferenceWrapper(lhs->getType())) // (reference_wrappers.cpp)
    fail(lhs->getExprLoc(), "rebinding a std::reference_wrapper is not supported (assign through '.get()', or use another wrapper)");
  if (ArrayInfo ai; arrayInfo(lhs->getType(), ai, SourceLocation())) {
    if (lowerPointerAssignment(e, lhs, rhs, env, root, newValue)) return true;
    if (ai.kind == ArrayInfo::Pointer && (incdec || compound))
      fail(e->getExprLoc(), "pointer arithmetic is not supported (index the array instead: 'x[i]')");
    if (!compound && lowerMemberArrayAssign(lhs, rhs, env, root, newValue)) return true; // p.c = {x, y}
    fail(e->getExprLoc(), "assignment of whole arrays or pointers is not supported yet (copy the elements in a loop)");
  }
  std::vector<int> path;
  {
    Env *saved = indexEnv_; // (the indices of member array elements: member_arrays.cpp)
    indexEnv_ = &env;
    root = assignedRoot(lhs, path, true);
    indexEnv_ = saved;
  }
  if (setField >= 0) path.push_back(setField);
  if (!env.count(root)) fail(lhs->getExprLoc(), "assignment to '" + root->getNameAsString() + "' which is not a local variable");
  // the right operand first: its side effects (`x = (y = 2)`, checked by
  // checkSequenced) come before the assignment
  ir::Expr r = rhs ? lowerExpr(rhs, env) : nullptr;
  ir::Expr cur = cellValue(root, env);
  ir::Expr old = readPath(cur, path);
  ir::Expr value;
  if (reset) {
    value = emptyOptional(old->type);
  } else if (complexOp) {
    value = complexCompoundValue(op, old, r);
  } else if (incdec) {
    if (!old->type->isScalar() || old->type->isBool()) fail(e->getExprLoc(), "increment of a non-arithmetic value");
    value = ir::Prim::make(op, {old, one(old->type)});
  } else if (compound) {
    const auto *ca = cast<CompoundAssignOperator>(e);
    ir::TypeP ct = typeOf(ca->getComputationResultType(), e->getExprLoc());
    if (!old->type->isScalar()) fail(e->getExprLoc(), "compound assignment to a non-scalar value");
    if (op == ir::Op::Mod && !ct->isInt()) fail(e->getExprLoc(), "operator '%' on non-integers");
    value = convert(ir::Prim::make(op, {convert(old, ct), convert(r, ct)}), old->type);
  } else {
    value = convert(r, old->type);
  }
  newValue = updatePath(cur, path, 0, value);
  return true;
}

// `p.c = {x, y}` of a std::array member of a local object: each element's
// field set.
bool Lowering::lowerMemberArrayAssign(const Expr *lhs, const Expr *rhs, Env &env, const VarDecl *&root,
                                      ir::Expr &newValue) {
  std::vector<int> path;
  root = isa<MemberExpr>(lhs->IgnoreParens()) ? assignedRoot(lhs, path, false) : nullptr;
  if (!root || !env.count(root) || path.empty()) return false;
  ir::Expr cur = env.at(root);
  const int first = path.back();
  path.pop_back();
  std::vector<ir::Expr> values = memberArrayAssigned(lhs, rhs, readPath(cur, path)->type, first, env);
  if (values.empty()) return false;
  path.push_back(first);
  for (size_t k = 0; k < values.size(); ++k) {
    path.back() = first + int(k);
    cur = updatePath(cur, path, 0, values[k]);
  }
  newValue = cur;
  return true;
}

void Lowering::collectAssigned(const Stmt *s, const Env &env, std::vector<const VarDecl *> &out) {
  if (!s) return;
  if (isa<LambdaExpr>(s)) return;
  const Expr *lhs = nullptr;
  if (const auto *b = dyn_cast<BinaryOperator>(s); b && b->isAssignmentOp()) lhs = b->getLHS();
  else if (const auto *u = dyn_cast<UnaryOperator>(s); u && u->isIncrementDecrementOp()) lhs = u->getSubExpr();
  else if (const auto *oc = dyn_cast<CXXOperatorCallExpr>(s); oc && isTrivialStructAssign(oc)) lhs = oc->getArg(0);
  std::vector<const Expr *> lhss{lhs};
  if (std::vector<const Expr *> tied; tieAssignment(dyn_cast<Expr>(s), tied, nullptr)) // std::tie(a, b) = ...
    lhss.insert(lhss.end(), tied.begin(), tied.end());
  // std::swap(x, y) assigns both (std_algorithms.cpp)
  if (const auto *c = dyn_cast<CallExpr>(s); c && c->getNumArgs() == 2 && c->getDirectCallee() &&
                                             c->getDirectCallee()->getIdentifier() && c->getDirectCallee()->getIdentifier()->isStr("swap") &&
                                             c->getDirectCallee()->isInStdNamespace())
    lhss = {c->getArg(0), c->getArg(1)};
  // std::advance(it, k) moves it (iterators.cpp)
  if (const auto *c = dyn_cast<CallExpr>(s); c && c->getNumArgs() == 2 && c->getDirectCallee() &&
                                             c->getDirectCallee()->getIdentifier() && c->getDirectCallee()->getName() == "advance" &&
                                             c->getDirectCallee()->isInStdNamespace())
    lhss.push_back(c->getArg(0));
  // a helper assigns what it is given for its non-const reference parameters (references.cpp)
  if (const auto *c = dyn_cast<CallExpr>(s); c && c->getDirectCallee() && takesOutReference(c->getDirectCallee())) {
    const FunctionDecl *def = c->getDirectCallee()->getDefinition();
    for (unsigned k = 0; k < c->getNumArgs() && k < def->getNumParams(); ++k)
      if (outReferenceParam(def->getParamDecl(k))) lhss.push_back(c->getArg(k));
  }
  // a non-const method assigns its object (classes.cpp)
  if (const auto *mc = dyn_cast<CXXMemberCallExpr>(s); mc && mc->getMethodDecl() && !mc->getMethodDecl()->isConst() &&
                                                        !mc->getMethodDecl()->isStatic())
    lhss.push_back(mc->getImplicitObjectArgument());
  if (const auto *oc = dyn_cast<CXXOperatorCallExpr>(s); oc && oc->getNumArgs() >= 1 && !isTrivialStructAssign(oc))
    if (const auto *md = dyn_cast_or_null<CXXMethodDecl>(oc->getDirectCallee()); md && !md->isConst() && !md->isStatic())
      lhss.push_back(oc->getArg(0));
  if (const auto *c = dyn_cast<CallExpr>(s)) collectCallableWrites(c, env, out); // through lambdas' captures
  writtenNumberLeaves(s, env, out); // a split object's number members (written_members.cpp)
  // a growing vector's length, by a member call or an assignment (growing_vectors.cpp)
  const Expr *grown = nullptr;
  if (const auto *mc = dyn_cast<CXXMemberCallExpr>(s)) grown = mc->getImplicitObjectArgument();
  if (const auto *oc = dyn_cast<CXXOperatorCallExpr>(s); oc && oc->getOperator() == OO_Equal) grown = oc->getArg(0);
  if (grown)
    if (const VarDecl *len = growingLength(grown); len && env.count(len) &&
        std::find(out.begin(), out.end(), len) == out.end()) {
      out.push_back(len);
      if (auto cap = growCap_.find(len); cap != growCap_.end()) out.push_back(cap->second); // (an output's size)
    }
  for (const Expr *l : lhss) {
    if (!l) continue;
    for (const VarDecl *vd : assignedRoots(l)) {
      auto it = env.find(vd);
      if (it != env.end() && !it->second->type->isArray() && std::find(out.begin(), out.end(), vd) == out.end())
        out.push_back(vd);
      if (auto r = reseated_.find(vd); r != reseated_.end() && env.count(r->second.tag) &&
                                       std::find(out.begin(), out.end(), r->second.tag) == out.end())
        out.push_back(r->second.tag); // (its array may change with it: reseated_pointers.cpp)
    }
  }
  for (const Stmt *c : s->children()) collectAssigned(c, env, out);
}

// An `if` whose branches may `return`: each path ends in a join tuple
//   (returned, value, the variables the branches assign...)
// and the rest of the block follows once, under `if returned then value
// else rest` (copying the rest into every path that reaches it would double
// the code with every such `if`).
ir::Expr Lowering::lowerIfReturning(const IfStmt *is, const ir::Expr &cond, const Seq *rest, Env &env,
                                    const Tail &tail) {
  const Stmt *thenS = is->getThen(), *elseS = is->getElse();
  std::vector<const VarDecl *> assigned;
  collectAssigned(thenS, env, assigned);
  collectAssigned(elseS, env, assigned);
  auto pack = [&](bool returned, const ir::Expr &value, Env &e2) {
    std::vector<ir::Expr> es{ir::Const::makeBool(returned), value};
    for (const VarDecl *v : assigned) es.push_back(e2.at(v));
    return ir::Tuple::make(es);
  };
  auto outer = onReturn_;
  onReturn_ = [&](const ir::Expr &v, Env &e2) { return pack(true, v, e2); };
  Tail fall = [&](Env &e2) { return pack(false, ir::Const::zero(result_), e2); };
  Seq t{&thenS, &thenS + 1, nullptr};
  Seq f{&elseS, elseS ? &elseS + 1 : &elseS, nullptr};
  Env envT = env, envF = env;
  ir::Expr te = lowerSeq(&t, envT, fall);
  ir::Expr ee = lowerSeq(&f, envF, fall);
  onReturn_ = outer;
  std::string jn = names_.fresh("joined");
  ir::Expr joined = ir::If::make(cond, te, ee);
  ir::Expr jv = ir::Var::make(jn, joined->type);
  ir::Expr value = ir::Proj::make(jv, 1);
  // A return inside an enclosing returning `if` passes the value on (the
  // variables' values do not matter then; those in scope here are used).
  Env before = env;
  ir::Expr returned = outer ? outer(value, before) : value;
  // The rest, after the branches' assignments.
  std::vector<std::pair<std::string, ir::Expr>> binds;
  for (size_t i = 0; i < assigned.size(); ++i) {
    std::string n = names_.fresh(assigned[i]->getNameAsString());
    ir::Expr val = ir::Proj::make(jv, int(i) + 2);
    env[assigned[i]] = ir::Var::make(n, val->type);
    binds.push_back({n, val});
  }
  ir::Expr after = lowerSeq(rest, env, tail);
  for (auto it = binds.rbegin(); it != binds.rend(); ++it) after = ir::Let::make(it->first, it->second, after);
  return ir::Let::make(jn, joined, ir::If::make(ir::Proj::make(jv, 0), returned, after));
}

// `if (init; cond)` and `if (T v = e)`: the declarations first, as
// statements before the `if` (their names are only used inside it).
ir::Expr Lowering::lowerIf(const IfStmt *is, const Seq *rest, Env &env, const Tail &tail) {
  if (is->isConsteval()) fail(is->getIfLoc(), "'if consteval' is not supported");
  std::vector<const Stmt *> prelude;
  if (is->getInit()) prelude.push_back(is->getInit());
  if (is->getConditionVariableDeclStmt()) prelude.push_back(is->getConditionVariableDeclStmt());
  if (prelude.empty()) return lowerIfStmt(is, rest, env, tail);
  Seq ps{prelude.data(), prelude.data() + prelude.size(), nullptr};
  return lowerSeq(&ps, env, [&](Env &e2) { return lowerIfStmt(is, rest, e2, tail); });
}

ir::Expr Lowering::lowerIfStmt(const IfStmt *is, const Seq *rest, Env &env, const Tail &tail) {
  Binds pre; // side effects in the condition: `if ((t = g(x)) > 0)`
  ir::Expr cond = toBool(lowerFull(is->getCond(), env, pre));
  // a condition known here (`if (this != &other)` of two objects): the
  // branch it takes, as straight code
  if (const auto *c = cond->as<ir::Const>(); c && pre.empty()) {
    const Stmt *taken = c->ivalue ? is->getThen() : is->getElse();
    if (!taken) return lowerSeq(rest, env, tail);
    Seq branch{&taken, &taken + 1, rest};
    return lowerSeq(&branch, env, tail);
  }
  return wrap(pre, lowerIfBranches(is, cond, rest, env, tail));
}

ir::Expr Lowering::lowerIfBranches(const IfStmt *is, const ir::Expr &cond, const Seq *rest, Env &env, const Tail &tail) {
  const Stmt *thenS = is->getThen(), *elseS = is->getElse();
  if ((containsJump(thenS) || containsJump(elseS)) && !containsLoopJump(thenS) && !containsLoopJump(elseS))
    return lowerIfReturning(is, cond, rest, env, tail);
  if (containsJump(thenS) || containsJump(elseS)) {
    // continuation style (break/continue): the rest goes into both branches
    Seq t{&thenS, &thenS + 1, rest};
    Seq f{&elseS, elseS ? &elseS + 1 : &elseS, rest};
    Env envT = env, envF = env;
    ir::Expr te = lowerSeq(&t, envT, tail);
    ir::Expr ee = lowerSeq(&f, envF, tail);
    if (!ir::sameType(te->type, ee->type)) throw ir::IRError("branches of if differ in type");
    return ir::If::make(cond, te, ee);
  }
  std::vector<const VarDecl *> assigned;
  collectAssigned(thenS, env, assigned);
  collectAssigned(elseS, env, assigned);
  Tail join = joinTail(assigned);
  Seq t{&thenS, &thenS + 1, nullptr};
  Seq f{&elseS, elseS ? &elseS + 1 : &elseS, nullptr};
  ir::Expr te = lowerSeq(&t, env, join);
  ir::Expr ee = lowerSeq(&f, env, join);
  return continueAfterJoin(ir::If::make(cond, te, ee), assigned, rest, env, tail);
}

// The end of a branch: the values of the variables the branches assign.
Tail Lowering::joinTail(const std::vector<const VarDecl *> &assigned) {
  return [assigned](Env &e2) -> ir::Expr {
    if (assigned.empty()) return ir::Tuple::make({});
    std::vector<ir::Expr> vs;
    for (const VarDecl *v : assigned) vs.push_back(e2.at(v));
    return vs.size() == 1 ? vs[0] : ir::Tuple::make(vs);
  };
}

// After branches ending in joinTail(assigned), joined into `joined`: the
// assigned variables bound to its values, then the rest.
ir::Expr Lowering::continueAfterJoin(const ir::Expr &joined, const std::vector<const VarDecl *> &assigned,
                                     const Seq *rest, Env &env, const Tail &tail) {
  if (assigned.empty()) {
    if (!ir::mayWrite(joined)) return lowerSeq(rest, env, tail); // nothing observable
    return effect(joined, [&] { return lowerSeq(rest, env, tail); });
  }
  if (assigned.size() == 1) {
    const VarDecl *v = assigned[0];
    return bindAndContinue(v, joined, rest, env, tail);
  }
  std::string tn = names_.fresh("merged");
  ir::Expr tv = ir::Var::make(tn, joined->type);
  std::vector<std::pair<std::string, ir::Expr>> binds;
  for (size_t i = 0; i < assigned.size(); ++i) {
    std::string n = names_.fresh(assigned[i]->getNameAsString());
    ir::Expr val = ir::Proj::make(tv, int(i));
    env[assigned[i]] = ir::Var::make(n, val->type);
    binds.push_back({n, val});
  }
  ir::Expr body = lowerSeq(rest, env, tail);
  for (auto it = binds.rbegin(); it != binds.rend(); ++it) body = ir::Let::make(it->first, it->second, body);
  return ir::Let::make(tn, joined, body);
}

} // namespace unfad::frontend
