// Calls: the <cmath> functions and std::min/max become IR operators, calls
// of other functions whose body is visible become Calls of their lowered
// versions (requested here, lowered later by functions.cpp).
#include "lowering.h"
#include "unfad/ir/traverse.h"

#include <clang/AST/DeclCXX.h>
#include <llvm/ADT/StringMap.h>

namespace unfad::frontend {

using namespace clang;

// `const double& larger(const double& a, const double& b)`, `double& at(...)`:
// a reference to a scalar or a struct, which a call read as a value gives.
bool returnsReadableReference(const FunctionDecl *fd) {
  QualType t = fd->getReturnType();
  if (!t->isLValueReferenceType()) return false;
  QualType pt = t.getNonReferenceType();
  return !pt->isPointerType() && !pt->isArrayType() && (pt->isArithmeticType() || pt->isStructureOrClassType());
}

namespace {

bool isStdOrGlobal(const DeclContext *dc) {
  while (dc && (dc->isTransparentContext() || dc->isInlineNamespace() || isa<LinkageSpecDecl>(dc)))
    dc = dc->getParent();
  if (!dc) return false;
  if (dc->isTranslationUnit()) return true;
  if (const auto *ns = dyn_cast<NamespaceDecl>(dc))
    return ns->getName() == "std" && isStdOrGlobal(ns->getParent()) && ns->getParent()->getRedeclContext()->isTranslationUnit();
  return false;
}

// The math functions are the operators from Sin to Trunc of UNFAD_IR_OPS,
// whose spellings are their C names; an operator added in that range must
// be one too.
static_assert(int(ir::Op::Sin) == int(ir::Op::Mod) + 1 && int(ir::Op::Lt) == int(ir::Op::Trunc) + 1,
              "the math functions are the operators from Sin to Trunc");

const llvm::StringMap<ir::Op> &mathFunctions() {
  static const llvm::StringMap<ir::Op> table = [] {
    llvm::StringMap<ir::Op> t;
    for (int k = int(ir::Op::Sin); k <= int(ir::Op::Trunc); ++k) t[ir::opName(ir::Op(k))] = ir::Op(k);
    // C++ only: <cmath> overloads `abs` for floating-point arguments
    t["abs"] = ir::Op::Fabs;
    return t;
  }();
  return table;
}

// `sin`, `std::sin`, `sinf`, `sinl`, `__builtin_sin`, ... -> Op::Sin
bool mathOpByName(llvm::StringRef name, ir::Op &op) {
  const llvm::StringMap<ir::Op> &table = mathFunctions();
  name.consume_front("__builtin_");
  auto it = table.find(name);
  if (it == table.end() && (name.ends_with("f") || name.ends_with("l")) && name != "abs")
    it = table.find(name.drop_back());
  if (it == table.end()) return false;
  op = it->second;
  return true;
}

} // namespace

ir::Expr Lowering::lowerCall(const CallExpr *ce, Env &env) {
  SourceLocation loc = ce->getExprLoc();
  refuseOutput(ce); // `std::cerr << ...`, printf (passive_calls.cpp)
  if (auto it = returnedArrays_.find(ce); it != returnedArrays_.end()) return it->second; // returned_arrays.cpp
  if (ir::Expr z = lowerComplexCall(ce, env)) return z; // std::complex's operators and functions (complex_numbers.cpp)
  if (ir::Expr o = lowerOptionalCall(ce, env)) return o; // *o, o.value(), o.has_value() (optionals.cpp)
  if (ir::Expr m = lowerMemberArrayRead(ce, env)) return m; // `v.c[i]` of a std::array member (member_arrays.cpp)
  if (const auto *oc = dyn_cast<CXXOperatorCallExpr>(ce))
    if (ir::Expr called = lowerStdFunctionCall(oc, env)) return called; // std_function.cpp
  if (const auto *oc = dyn_cast<CXXOperatorCallExpr>(ce))
    if (ir::Expr called = lowerClosureCall(oc, env)) return called; // a lambda (lambdas.cpp)
  if (const auto *oc = dyn_cast<CXXOperatorCallExpr>(ce); oc && isTrivialStructAssign(oc)) return lowerSideEffect(oc, env);
  if (const auto *oc = dyn_cast<CXXOperatorCallExpr>(ce); oc && oc->getOperator() == OO_Star && oc->getNumArgs() == 1)
    if (ir::Expr extreme = lowerExtremeElement(oc->getArg(0), env)) return extreme; // *std::max_element(v.begin(), ...)
  if (ir::Expr it = lowerIteratorCall(ce, env)) return it; // `it != end`, `*it`, std::distance (iterators.cpp)
  if (const auto *oc = dyn_cast<CXXOperatorCallExpr>(ce); oc && oc->getNumArgs() >= 1) {
    ArrayInfo ai;
    if (arrayInfo(oc->getArg(0)->getType(), ai, SourceLocation())) {
      ir::Expr a, i;
      if (elementRef(oc, env, a, i)) return read(a, i, loc);
      if (oc->getOperator() == OO_Equal) return lowerWholeArrayCopy(oc->getArg(0), oc->getArg(1), false, env, loc);
      fail(loc, "operator '" + std::string(getOperatorSpelling(oc->getOperator())) + "' on arrays is not supported");
    }
  }
  if (const auto *oc = dyn_cast<CXXOperatorCallExpr>(ce); oc && oc->getNumArgs() >= 1)
    if (const auto *m = dyn_cast_or_null<CXXMethodDecl>(oc->getDirectCallee()); m && !m->isStatic())
      return lowerMethodCall(ce, m, env); // a member operator (classes.cpp)
  if (const auto *mc = dyn_cast<CXXMemberCallExpr>(ce)) {
    if (ArrayInfo ai; arrayInfo(mc->getObjectType(), ai, SourceLocation())) return lowerArrayMember(mc, env);
    if (ir::Expr k = tryConstant(ce)) return k;
    const CXXMethodDecl *m = mc->getMethodDecl();
    if (m && m->isVirtual()) fail(loc, "virtual calls are not supported ('" + m->getNameAsString() + "')");
    if (m) return lowerMethodCall(ce, m, env); // classes.cpp
    fail(loc, "calls to member functions are not supported yet ('" + (m ? m->getNameAsString() : std::string("?")) + "')");
  }
  if (ir::Expr algorithm = lowerStdAlgorithm(ce, env)) return algorithm;
  const FunctionDecl *fd = ce->getDirectCallee();
  if (!fd) fd = boundFunction(ce); // a template's function pointer parameter (lambdas.cpp)
  if (!fd) fail(loc, "calls through function pointers are not supported");
  std::string fname = fd->getNameAsString();
  if (const auto *m = dyn_cast<CXXMethodDecl>(fd)) {
    if (!m->isStatic()) {
      if (m->isVirtual()) fail(loc, "virtual calls are not supported ('" + fname + "')");
      fail(loc, "calls to member functions are not supported yet ('" + fname + "')");
    }
  }
  if (ir::Expr t = lowerTupleLikeCall(ce, fd, env)) return t; // make_pair, std::get (pairs_tuples.cpp)
  if (ir::Expr math = lowerMathCall(ce, fd, env)) return math;
  if (ir::Expr math = lowerMoreMath(ce, fd, env)) return math; // fma, clamp, no_grad (math_calls.cpp)
  if (ir::Expr custom = lowerCustomCall(ce, fd, env)) return custom; // UNFAD_CUSTOM_GRADIENT (custom_derivatives.cpp)
  if (ir::Expr mem = lowerMemCall(ce, fd, env)) return mem; // memcpy, memset (std_algorithms.cpp)
  // (before the passive calls: such a call on passive values still writes them)
  if (inlinedHelper(fd) || inlinedOperator(fd) || passesFixedTable(ce, fd) || passesFlatRow(ce, fd) ||
      passesPassiveData(ce, fd) || passesGrowingVector(ce, fd))
    return lowerInlinedCall(ce, fd, env);
  if (ir::Expr passive = lowerPassiveCall(ce, fd, env)) return passive;
  return lowerHelperCall(ce, fd, env);
}

ir::Expr Lowering::lowerMathCall(const CallExpr *ce, const FunctionDecl *fd, Env &env) {
  if (!fd->getIdentifier() || !isStdOrGlobal(fd->getDeclContext())) return nullptr;
  SourceLocation loc = ce->getExprLoc();
  std::string fname = fd->getNameAsString();
  QualType rt = ce->getType();
  ir::Op op;
  llvm::StringRef n = fd->getName();
  bool inStd = !fd->getDeclContext()->getRedeclContext()->isTranslationUnit();
  bool system = inStd || !fd->hasBody() || sm_.isInSystemHeader(sm_.getExpansionLoc(fd->getLocation()));
  if ((n == "min" || n == "max") && inStd && ce->getNumArgs() == 2) {
    ir::TypeP t = typeOf(rt.getNonReferenceType().getUnqualifiedType(), loc);
    // Each argument is evaluated once: it is both compared and returned.
    Binds binds;
    auto once = [&](const Expr *arg, const char *hint) {
      ir::Expr e = convert(lowerExpr(arg, env), t);
      if (e->is<ir::Var>() || e->is<ir::Const>()) return e;
      binds.push_back({names_.fresh(hint), e});
      return ir::Var::make(binds.back().first, t);
    };
    ir::Expr a = once(ce->getArg(0), "a"), b = once(ce->getArg(1), "b");
    if (n == "min") return wrap(binds, ir::If::make(ir::Prim::make(ir::Op::Lt, {b, a}), b, a));
    return wrap(binds, ir::If::make(ir::Prim::make(ir::Op::Lt, {a, b}), b, a));
  }
  // std::min({a, b, c}), std::max({...}): the first smallest (largest), as
  // the library picks it; std::minmax({...}): the pair of the first smallest
  // and the last largest
  if ((n == "min" || n == "max" || n == "minmax") && inStd && ce->getNumArgs() == 1)
    if (const auto *il = dyn_cast<CXXStdInitializerListExpr>(ce->getArg(0)->IgnoreImplicit())) {
      const auto *list = dyn_cast<InitListExpr>(il->getSubExpr()->IgnoreImplicit());
      if (!list || list->getNumInits() == 0) fail(loc, "'std::" + fname + "' of this list is not supported");
      const bool both = n == "minmax";
      ir::TypeP pt = both ? typeOf(rt.getUnqualifiedType(), loc) : nullptr;
      ir::TypeP t = both ? pt->elems[0] : typeOf(rt.getNonReferenceType().getUnqualifiedType(), loc);
      if (!t->isScalar()) fail(loc, "'std::" + fname + "' of a list of non-scalar values is not supported");
      Binds binds;
      ir::Expr lowest, highest;
      auto named = [&](const ir::Expr &v, const char *hint) {
        if (v->is<ir::Var>() || v->is<ir::Const>()) return v;
        binds.push_back({names_.fresh(hint), v});
        return ir::Expr(ir::Var::make(binds.back().first, t));
      };
      for (const Expr *e : list->inits()) {
        ir::Expr v = named(convert(lowerExpr(e, env), t), "listed");
        if (!lowest) {
          lowest = highest = v;
          continue;
        }
        if (n != "max") lowest = named(ir::If::make(ir::Prim::make(ir::Op::Lt, {v, lowest}), v, lowest), "lowest");
        if (n == "max") highest = named(ir::If::make(ir::Prim::make(ir::Op::Lt, {highest, v}), v, highest), "highest");
        if (both) // (the last of equal largest ones)
          highest = named(ir::If::make(ir::Prim::make(ir::Op::Lt, {v, highest}), highest, v), "highest");
      }
      if (both) return wrap(binds, ir::Tuple::makeStruct(pt, {lowest, highest}));
      return wrap(binds, n == "min" ? lowest : highest);
    }
  if (system && mathOpByName(n, op) && int(ce->getNumArgs()) == ir::opArity(op)) {
    ir::TypeP t = typeOf(rt.getUnqualifiedType(), loc);
    std::vector<ir::Expr> args;
    for (unsigned i = 0; i < ce->getNumArgs(); ++i) args.push_back(convert(lowerExpr(ce->getArg(i), env), t));
    if (t->isInt()) {
      if (n != "abs" && n != "labs" && n != "llabs") fail(loc, "'" + fname + "' on integers is not supported");
      ir::Expr x = args[0];
      return ir::If::make(ir::Prim::make(ir::Op::Lt, {x, ir::Const::makeInt(0)}), ir::Prim::make(ir::Op::Neg, {x}), x);
    }
    return ir::Prim::make(op, args);
  }
  return nullptr;
}

Lowering::CallSiteScope::CallSiteScope(Lowering &l, const CallExpr *call, const FunctionDecl *callee)
    : l(l), site(l.callSite_), at(l.calledAt_) {
  SourceLocation loc = call->getExprLoc();
  if (!l.sm_.isInSystemHeader(l.sm_.getExpansionLoc(loc)))
    l.callSite_ = loc, l.calledAt_ = stripAnon(callee->getQualifiedNameAsString());
}

// A call of a function whose body unfad lowers too.
ir::Expr Lowering::lowerHelperCall(const CallExpr *ce, const FunctionDecl *fd, Env &env) {
  SourceLocation loc = ce->getExprLoc();
  std::string fname = fd->getNameAsString();
  CallSiteScope site(*this, ce, fd); // (errors in its parameter types are this call's)
  if (fd->isVariadic()) fail(loc, "calls to variadic functions are not supported ('" + fname + "')");
  if (fd->getReturnType()->isReferenceType()) {
    if (ir::Expr k = tryConstant(ce)) return k;
    // read here (an rvalue): the value it refers to, as if returned by value
    if (!returnsReadableReference(fd))
      fail(loc, "calls to functions returning references to arrays or pointers are not supported ('" + fname + "')");
  }
  const FunctionDecl *def = fd->getDefinition();
  if (!def || !def->hasBody() || isa<CXXTryStmt>(def->getBody())) {
    if (ir::Expr k = tryConstant(ce)) return k;
    fail(loc, "call to '" + fname + "' whose body is not visible (give it a derivative with UNFAD_CUSTOM_GRADIENT, or differentiate it numerically with --numerical-fallback)");
  }
  QualType drt = def->getReturnType().getNonReferenceType();
  if (returnedArrayCall(ce))
    fail(loc, "a call of '" + fname + "', which returns an array, is not supported here: it is evaluated conditionally or "
              "repeatedly (an operand of '?:', '&&', '||', a loop condition; call it in a statement of its own before)");
  if (ArrayInfo ai; drt->isPointerType() || drt->isArrayType() || arrayInfo(drt, ai, SourceLocation()))
    fail(loc, "'" + fname + "' returns an array or a pointer, which is not supported (write into an output parameter instead)");
  std::vector<ir::Expr> args;
  Binds copies; // by-value arrays, copied before the call
  if (ce->getNumArgs() != def->getNumParams()) fail(loc, "call with a wrong number of arguments");
  for (unsigned i = 0; i < ce->getNumArgs(); ++i) {
    const bool byValue = byValueArrayParam(def->getParamDecl(i));
    ir::TypeP pt = paramType(def->getParamDecl(i), /*copied=*/true);
    if (pt->isArray()) {
      ir::Expr a = byValue ? copiedArgument(ce->getArg(i), def->getParamDecl(i), env, copies)
                           : lowerArrayRef(ce->getArg(i), env);
      if (!ir::sameType(a->type, pt))
        fail(ce->getArg(i)->getExprLoc(), "array of " + ir::str(a->type->elem()) + " passed as an array of " + ir::str(pt->elem()));
      if (!byValue && growingLength(ce->getArg(i)))
        a = growingArgument(ce->getArg(i), a, !def->getParamDecl(i)->getType().getNonReferenceType().isConstQualified(), env);
      args.push_back(a);
    } else {
      args.push_back(convert(lowerExpr(ce->getArg(i), env), pt));
    }
  }
  ir::TypeP result = drt->isVoidType() ? ir::Type::unit() : typeOf(drt.getUnqualifiedType(), def->getLocation());
  size_t idx = request(def, false, passiveArguments(args));
  if (!entries_[idx].done) queue_.push_back(idx);
  if (!entries_[idx].callSite.isValid()) entries_[idx].callSite = callSite_, entries_[idx].calledAt = calledAt_;
  ir::Expr call = ir::Call::make(entries_[idx].irName, args, result);
  locs_[call.get()] = loc;
  return ir::zipLets(copies, call);
}

// The array a by-value parameter's argument copies or moves (`v`,
// `std::move(v)`): the copy is made by copiedArgument.
const Expr *copySource(const Expr *arg) {
  const Expr *e = arg->IgnoreImplicit();
  if (const auto *c = dyn_cast<CXXConstructExpr>(e); c && c->getNumArgs() == 1 && c->getConstructor()->isCopyOrMoveConstructor())
    e = c->getArg(0)->IgnoreImplicit();
  if (const auto *call = dyn_cast<CallExpr>(e); call && call->getNumArgs() == 1)
    if (const FunctionDecl *fd = call->getDirectCallee(); fd && fd->isInStdNamespace() && fd->getName() == "move")
      e = call->getArg(0)->IgnoreImplicit();
  return e;
}

// A std::vector or std::array argument of a parameter taken by value
// (`double mean(std::vector<double> v)`): a fresh array filled from the
// argument before the call, which the helper may then change as its own.
//   let copy = new T[size(a)] in let _ = fold i in [0, size(a)): copy[i] = a[i] in h(copy)
ir::Expr Lowering::copiedArgument(const Expr *arg, const ParmVarDecl *param, Env &env, Binds &copies) {
  const ir::Expr a = lowerArrayRef(copySource(arg), env);
  const ir::TypeP elem = a->type->elem();
  if (elem->isArray() || growingLength(arg) || !a->is<ir::Var>())
    fail(arg->getExprLoc(), "this argument of a by-value std::vector or std::array parameter is not supported (an array "
                            "of arrays, a vector grown by push_back, or a pointer): pass it by reference");
  return copyArray(a, param, copies);
}

// A fresh array holding the elements of `a`, for the by-value parameter
// `param` (its lets appended to `copies`).
ir::Expr Lowering::copyArray(const ir::Expr &a, const ParmVarDecl *param, Binds &copies) {
  const ir::TypeP elem = a->type->elem();
  ArrayInfo ai;
  arrayInfo(param->getType(), ai, SourceLocation());
  const std::string copy = names_.fresh(param->getName().empty() ? "copy" : param->getNameAsString() + "_copy");
  const std::string i = names_.fresh("i");
  // (a std::array's copy has its constant size: the printer keeps it on the stack)
  const ir::Expr size = ai.kind == ArrayInfo::StdArray ? ir::Const::makeInt(ai.size) : ir::Size::make(a);
  const ir::Expr index = ir::Var::make(i, ir::Type::i64());
  const ir::Expr copyVar = ir::Var::make(copy, a->type);
  ir::Expr fill = ir::Fold::make(ir::Const::makeInt(0), size, ir::Tuple::make({}), i, names_.fresh("state"),
                                 ir::Let::make(names_.fresh("_"),
                                               ir::Store::make(copyVar, index, ir::Index::make(a, index), ir::Store::Mode::Set),
                                               ir::Tuple::make({})));
  copies.push_back({copy, ir::NewArray::make(size, elem)});
  copies.push_back({names_.fresh("_"), fill});
  return copyVar;
}

// A helper given an array parameter of the caller that has no derivatives
// (left out of UNFAD_GRADIENT_WRT, or passive in this copy of the caller)
// is lowered as a copy in which that parameter is passive too. Otherwise its
// pullback would want an adjoint buffer there, which the caller could only
// make as a scratch array of the argument's size, unknown for a pointer.
// Empty when every argument may carry derivatives (the plain copy).
std::vector<bool> Lowering::passiveArguments(const std::vector<ir::Expr> &args) {
  std::vector<bool> passive(args.size());
  bool any = false;
  for (size_t k = 0; k < args.size(); ++k)
    if (const auto *v = ir::rootArray(args[k])->as<ir::Var>(); v && ir::isActive(args[k]->type) && passiveArrays_.count(v->name))
      passive[k] = any = true;
  if (!any) passive.clear();
  return passive;
}

} // namespace unfad::frontend
