// Expressions: literals, variables, members, operators, conditionals, casts,
// constructors and initializer lists (calls are in calls.cpp, array
// elements in arrays.cpp).
#include "lowering.h"

#include <clang/AST/DeclCXX.h>

namespace unfad::frontend {

using namespace clang;

ir::Expr Lowering::lookupVar(const VarDecl *vd, Env &env, SourceLocation loc) {
  if (closureRecord(vd->getType()) || isStdFunction(vd->getType()))
    fail(loc, "a lambda can only be called here, or given to a standard algorithm or a function template ('" +
                  vd->getNameAsString() + "')");
  if (const RefTarget *t = refOf(vd)) return readRef(*t, env, loc);
  auto it = env.find(vd);
  if (auto p = ptrBase_.find(vd); p != ptrBase_.end() && it != env.end())
    return ir::View::make(reseated_.count(vd) ? reseatedArray(vd, env, loc) : p->second, it->second);
  if (it != env.end()) return cellValue(vd, env); // (a cell's element: address_taken.cpp)
  if (viewArrays_.count(vd))
    fail(loc, "'" + vd->getNameAsString() + "', an array of structs with pointer members, can only be indexed here ('" +
                  vd->getNameAsString() + "[k]')");
  if (viewLocals_.count(vd))
    fail(loc, "'" + vd->getNameAsString() + "', a struct with pointer members, can only be used here through its members "
                  "(it can be copied into a local and passed to helpers)");
  if (vd->hasLocalStorage()) fail(loc, "use of variable '" + vd->getNameAsString() + "' that is not in scope");
  if (isConstantTable(vd)) return namedConstant(vd, loc);
  QualType t = vd->getType();
  if (t.isConstQualified() || vd->isConstexpr()) {
    if (t->isReferenceType()) fail(loc, "reference variables are not supported yet ('" + vd->getNameAsString() + "')");
    if (const VarDecl *init = vd->getInitializingDeclaration()) {
      if (const APValue *v = init->evaluateValue())
        if (ir::Expr c = constantFromAPValue(*v, t.getUnqualifiedType(), loc)) return c;
    }
    if (!vd->isStaticLocal()) return namedConstant(vd, loc); // initialised at run time: read by name
    fail(loc, "global constant '" + vd->getNameAsString() + "' has no constant initializer");
  }
  // A mutable global number: nothing the call runs may write it (writes are
  // refused, passive calls are assumed pure), so it holds one value during f
  // or f_grad, read by name like a constant (constant_tables.cpp).
  if (!vd->isStaticLocal() && !vd->getTLSKind() && t->isArithmeticType()) return namedConstant(vd, loc);
  fail(loc, std::string("reads of ") + (vd->isStaticLocal() ? "static local" : "global") + " variable '" +
                vd->getNameAsString() + "' are not supported (only constants and numbers at namespace scope)");
}

// One case per kind of Clang expression; the bigger ones have their own
// function.
ir::Expr Lowering::lowerExpr(const Expr *e, Env &env) {
  SourceLocation loc = e->getExprLoc();
  if (const auto *p = dyn_cast<ParenExpr>(e)) return lowerExpr(p->getSubExpr(), env);
  if (const auto *c = dyn_cast<ConstantExpr>(e)) return lowerExpr(c->getSubExpr(), env);
  if (const auto *c = dyn_cast<ExprWithCleanups>(e)) return lowerExpr(c->getSubExpr(), env);
  if (const auto *m = dyn_cast<MaterializeTemporaryExpr>(e)) return lowerExpr(m->getSubExpr(), env);
  if (const auto *b = dyn_cast<CXXBindTemporaryExpr>(e)) return lowerExpr(b->getSubExpr(), env);
  if (const auto *d = dyn_cast<CXXDefaultArgExpr>(e)) return lowerExpr(d->getExpr(), env);
  if (const auto *d = dyn_cast<CXXDefaultInitExpr>(e)) return lowerExpr(d->getExpr(), env);
  if (const Expr *u = unwrapReference(e)) return lowerExpr(u, env); // w.get(), (T&)w (reference_wrappers.cpp)
  if (nulloptType(e->getType())) return ir::Tuple::make({}); // std::nullopt, converted where it goes (optionals.cpp)
  if (sawTextParams_)
    if (ir::Expr t = lowerTextExpr(e, env)) return t; // `kind == "l1"` (text_params.cpp)
  if (const auto *c = dyn_cast<CastExpr>(e)) return lowerCast(c, env);
  if (const auto *f = dyn_cast<FloatingLiteral>(e))
    return ir::Const::make(f->getValueAsApproximateDouble(), typeOf(f->getType(), loc));
  if (const auto *i = dyn_cast<IntegerLiteral>(e)) return ir::Const::makeInt(int64_t(i->getValue().getZExtValue()));
  if (const auto *c = dyn_cast<CharacterLiteral>(e)) return ir::Const::makeInt(int64_t(c->getValue()));
  if (const auto *b = dyn_cast<CXXBoolLiteralExpr>(e)) return ir::Const::makeBool(b->getValue());
  if (isa<ImplicitValueInitExpr>(e) || isa<CXXScalarValueInitExpr>(e)) return ir::Const::zero(typeOf(e->getType(), loc));
  if (const auto *d = dyn_cast<DeclRefExpr>(e)) return lowerDeclRef(d, env);
  if (const auto *m = dyn_cast<MemberExpr>(e)) return lowerMember(m, env);
  if (const auto *u = dyn_cast<UnaryOperator>(e)) return lowerUnary(u, env);
  if (const auto *b = dyn_cast<BinaryOperator>(e)) return lowerBinary(b, env);
  if (const auto *c = dyn_cast<ConditionalOperator>(e)) {
    if (thrownBy(c->getTrueExpr()) || thrownBy(c->getFalseExpr())) return lowerThrowingChoice(c, env);
    if (c->getType()->isVoidType()) fail(loc, "conditional expressions of type void are not supported");
    ir::TypeP t = typeOf(c->getType(), loc);
    ir::Expr cond = toBool(lowerExpr(c->getCond(), env));
    if (effects_ && (conditionHasEffects(c->getTrueExpr()) || conditionHasEffects(c->getFalseExpr())))
      return choiceWithEffects(
          cond, [&](Env &e) { return convert(lowerExpr(c->getTrueExpr(), e), t); },
          [&](Env &e) { return convert(lowerExpr(c->getFalseExpr(), e), t); }, env, "chosen");
    EffectScope conditional(*this, nullptr, "a branch of '?:'");
    return ir::If::make(cond, convert(lowerExpr(c->getTrueExpr(), env), t), convert(lowerExpr(c->getFalseExpr(), env), t));
  }
  if (const auto *c = dyn_cast<CallExpr>(e)) return lowerCall(c, env);
  if (const auto *rb = dyn_cast<CXXRewrittenBinaryOperator>(e)) { // C++20's `a != b` from `a == b`
    if (ir::Expr r = lowerRewrittenIteratorComparison(rb, env)) return r;
    return lowerExpr(rb->getSemanticForm(), env);
  }
  if (const auto *il = dyn_cast<InitListExpr>(e)) return lowerInitList(il, env);
  if (const auto *c = dyn_cast<CXXConstructExpr>(e)) return lowerConstruct(c, env);
  if (const auto *u = dyn_cast<UnaryExprOrTypeTraitExpr>(e)) {
    if (ir::Expr k = tryConstant(u)) return k;
    fail(loc, "this 'sizeof'/'alignof' expression is not supported");
  }
  if (isa<ArraySubscriptExpr>(e)) {
    if (ir::Expr m = lowerMemberArrayRead(e, env)) return m; // `v.r[i]` (member_arrays.cpp)
    ir::Expr a, i;
    if (elementRef(e, env, a, i)) return read(a, i, loc);
    fail(loc, "this subscript is not supported");
  }
  return lowerUnsupported(e);
}

// What is left: constants Clang can evaluate, or an error naming the construct.
ir::Expr Lowering::lowerUnsupported(const Expr *e) {
  SourceLocation loc = e->getExprLoc();
  if (isa<BinaryConditionalOperator>(e)) fail(loc, "the '?:' extension is not supported");
  if (isa<LambdaExpr>(e)) fail(loc, "lambda expressions are not supported");
  if (isa<CXXThrowExpr>(e)) fail(loc, "a 'throw' is only supported as a statement or an arm of '?:'");
  if (isa<CXXThisExpr>(e)) fail(loc, "member functions are not supported yet ('this')");
  if (isa<StringLiteral>(e)) fail(loc, "string literals are not supported");
  if (isa<CXXNullPtrLiteralExpr>(e)) fail(loc, "pointers are not supported yet ('nullptr')");
  if (isa<CXXNewExpr>(e) || isa<CXXDeleteExpr>(e)) fail(loc, "'new' and 'delete' are not supported");
  if (isa<StmtExpr>(e)) fail(loc, "statement expressions are not supported");
  if (ir::Expr k = tryConstant(e)) return k;
  fail(loc, std::string("expression '") + e->getStmtClassName() + "' is not supported");
}

ir::Expr Lowering::lowerDeclRef(const DeclRefExpr *d, Env &env) {
  SourceLocation loc = d->getExprLoc();
  const ValueDecl *vd = d->getDecl();
  if (const auto *v = dyn_cast<VarDecl>(vd)) return noGradMarked(v, lookupVar(v, env, loc)); // custom_derivatives.cpp
  if (const auto *b = dyn_cast<BindingDecl>(vd); b && b->getBinding()) return lowerExpr(b->getBinding(), env); // auto [a, b] = ...
  if (const auto *ec = dyn_cast<EnumConstantDecl>(vd)) return ir::Const::makeInt(ec->getInitVal().getSExtValue());
  if (isa<FunctionDecl>(vd)) fail(loc, "function pointers are not supported");
  fail(loc, "reference to '" + vd->getNameAsString() + "' is not supported");
}

ir::Expr Lowering::lowerMember(const MemberExpr *m, Env &env) {
  SourceLocation loc = m->getExprLoc();
  if (const RefTarget *r = pairedRef(m)) return readRef(*r, env, loc); // mm.first of std::minmax(a, b)
  const auto *field = dyn_cast<FieldDecl>(m->getMemberDecl());
  if (field && !indexingMember_ && memberArrayLength(field->getType(), nullptr) > 0) // (member_arrays.cpp)
    fail(loc, "member array '" + field->getNameAsString() + "' is only supported indexed with constants or loop indices ('" +
                  field->getNameAsString() + "[i]'), not as a whole array");
  if (m->isArrow() && viewThisRoot(m->getBase()))
    if (ir::Expr leaf = viewMember(m, env)) return leaf; // this->x of a class owning vectors (vector_members.cpp)
  // a functor's member (lambdas.cpp), also where a marked method calls it (`this` is then the functor's)
  if (const auto *self = functorThis_ && field ? dyn_cast<CXXThisExpr>(m->getBase()->IgnoreParenImpCasts()) : nullptr;
      self && self->getType()->getPointeeCXXRecordDecl() &&
      self->getType()->getPointeeCXXRecordDecl()->getCanonicalDecl() == functorClass_->getCanonicalDecl())
    return noGradMarked(field, ir::Proj::make(functorThis_, fieldIndex(field)));
  int up = 0; // this->x of a base class (class_layout.cpp)
  if (const VarDecl *self = m->isArrow() && field ? thisDeclUp(m->getBase(), up) : nullptr) // this->x in a method
    return noGradMarked(field, ir::Proj::make(projUp(lookupVar(self, env, loc), up), fieldIndex(field)));
  if (ir::Expr leaf = viewMember(m, env)) return leaf;
  if (m->isArrow()) { // p->f: (*p).f of a pointer into an array of structs
    if (!field) fail(loc, "calls to member functions are not supported yet");
    ir::Expr elem = read(lowerArrayRef(m->getBase(), env), ir::Const::makeInt(0), loc);
    if (!elem->type->isStruct()) fail(loc, "member access on a non-struct value");
    return noGradMarked(field, ir::Proj::make(elem, fieldIndex(field)));
  }
  if (!field) {
    if (const auto *vd = dyn_cast<VarDecl>(m->getMemberDecl())) return lookupVar(vd, env, loc);
    fail(loc, "calls to member functions are not supported yet");
  }
  ir::Expr base = lowerExpr(m->getBase(), env);
  if (!base->type->isStruct()) fail(loc, "member access on a non-struct value");
  return noGradMarked(field, ir::Proj::make(base, fieldIndex(field)));
}

ir::Expr Lowering::lowerUnary(const UnaryOperator *u, Env &env) {
  SourceLocation loc = u->getExprLoc();
  switch (u->getOpcode()) {
  case UO_Plus: return lowerExpr(u->getSubExpr(), env);
  case UO_Minus: {
    ir::Expr x = lowerExpr(u->getSubExpr(), env);
    return ir::Prim::make(ir::Op::Neg, {convert(x, typeOf(u->getType(), loc))});
  }
  case UO_LNot: return ir::Prim::make(ir::Op::Not, {toBool(lowerExpr(u->getSubExpr(), env))});
  case UO_Deref: {
    ir::Expr a, i;
    if (ir::Expr extreme = lowerExtremeElement(u->getSubExpr(), env)) return extreme;
    if (const VarDecl *self = thisDecl(u, true)) return lookupVar(self, env, loc); // *this
    if (elementRef(u, env, a, i)) return read(a, i, loc);
    fail(loc, "pointers are not supported yet");
  }
  case UO_AddrOf: fail(loc, "taking addresses is not supported (pointers are only supported as arrays)");
  case UO_PreInc: case UO_PreDec: case UO_PostInc: case UO_PostDec: return lowerSideEffect(u, env);
  case UO_Not: return ir::Prim::make(ir::Op::BitNot, {convert(lowerExpr(u->getSubExpr(), env), ir::Type::i64())});
  default: fail(loc, std::string("unary operator '") + UnaryOperator::getOpcodeStr(u->getOpcode()).str() + "' is not supported");
  }
}

ir::Op bitwiseOp(BinaryOperatorKind op) {
  switch (op) {
  case BO_And: case BO_AndAssign: return ir::Op::BitAnd;
  case BO_Or: case BO_OrAssign: return ir::Op::BitOr;
  case BO_Xor: case BO_XorAssign: return ir::Op::BitXor;
  case BO_Shl: case BO_ShlAssign: return ir::Op::Shl;
  case BO_Shr: case BO_ShrAssign: return ir::Op::Shr;
  default: throw ir::IRError("not a bitwise operator");
  }
}

ir::Expr Lowering::lowerBinary(const BinaryOperator *b, Env &env) {
  SourceLocation loc = b->getExprLoc();
  BinaryOperatorKind op = b->getOpcode();
  std::string spelling = BinaryOperator::getOpcodeStr(op).str();
  if (b->isAssignmentOp()) return lowerSideEffect(b, env);
  if (op == BO_Comma) {
    // the left operand for its side effects only, before the right one
    ir::Expr l = lowerExpr(b->getLHS(), env);
    if (ir::mayWrite(l)) {
      if (!effects_) fail(loc, "the comma operator with a call that writes memory is not supported here (use a separate statement)");
      effects_->push_back({names_.fresh("_"), l});
    }
    return lowerExpr(b->getRHS(), env);
  }
  if (ir::Expr r = lowerPointerBinary(b, env)) return r;
  if (op == BO_LAnd || op == BO_LOr) {
    ir::Expr l = toBool(lowerExpr(b->getLHS(), env));
    if (effects_ && conditionHasEffects(b->getRHS())) return lowerEffectfulRight(b, l, env);
    EffectScope conditional(*this, nullptr, std::string("the right operand of '") + (op == BO_LAnd ? "&&" : "||") + "'");
    return ir::Prim::make(op == BO_LAnd ? ir::Op::And : ir::Op::Or, {l, toBool(lowerExpr(b->getRHS(), env))});
  }
  if (b->isShiftOp() || b->isBitwiseOp()) { // on integers (and bools, promoted): passive
    ir::Expr l = lowerExpr(b->getLHS(), env), r = lowerExpr(b->getRHS(), env);
    if (!l->type->isScalar() || !r->type->isScalar() || l->type->isFloat() || r->type->isFloat())
      fail(loc, "operator '" + spelling + "' on values that are not integers");
    return ir::Prim::make(bitwiseOp(op), {convert(l, ir::Type::i64()), convert(r, ir::Type::i64())});
  }
  if (b->isPtrMemOp()) fail(loc, "pointers to members are not supported");
  if (b->getLHS()->getType()->isPointerType() || b->getRHS()->getType()->isPointerType() ||
      b->getLHS()->getType()->isArrayType() || b->getRHS()->getType()->isArrayType()) {
    if (b->isAdditiveOp()) fail(loc, "pointer arithmetic is not supported (index the array instead: 'x[i]')");
    fail(loc, "operator '" + spelling + "' on pointers is not supported");
  }
  ir::Expr l = lowerExpr(b->getLHS(), env), r = lowerExpr(b->getRHS(), env);
  if (!l->type->isScalar() || !r->type->isScalar()) fail(loc, "operator '" + spelling + "' on non-scalar values");
  if (b->isComparisonOp()) {
    // both operands have the common type after Sema's conversions
    if (!ir::sameType(l->type, r->type)) {
      ir::TypeP common = l->type->isFloat() ? l->type : r->type;
      l = convert(l, common), r = convert(r, common);
    }
    ir::Op o = op == BO_LT ? ir::Op::Lt : op == BO_LE ? ir::Op::Le : op == BO_GT ? ir::Op::Gt
             : op == BO_GE ? ir::Op::Ge : op == BO_EQ ? ir::Op::Eq : op == BO_NE ? ir::Op::Ne : ir::Op::Eq;
    if (op == BO_Cmp) fail(loc, "the three-way comparison operator is not supported");
    return ir::Prim::make(o, {l, r});
  }
  ir::TypeP t = typeOf(b->getType(), loc);
  l = convert(l, t), r = convert(r, t);
  switch (op) {
  case BO_Add: return ir::Prim::make(ir::Op::Add, {l, r});
  case BO_Sub: return ir::Prim::make(ir::Op::Sub, {l, r});
  case BO_Mul: return ir::Prim::make(ir::Op::Mul, {l, r});
  case BO_Div: return ir::Prim::make(ir::Op::Div, {l, r});
  case BO_Rem:
    if (!t->isInt()) fail(loc, "operator '%' on non-integers");
    return ir::Prim::make(ir::Op::Mod, {l, r});
  default: fail(loc, "operator '" + spelling + "' is not supported");
  }
}

// Trivial constructors: a zero value, or a copy.
ir::Expr Lowering::lowerConstruct(const CXXConstructExpr *c, Env &env) {
  SourceLocation loc = c->getExprLoc();
  const CXXConstructorDecl *ctor = c->getConstructor();
  if (tupleLike(c->getType())) return lowerTupleLikeConstruct(c, env); // pairs_tuples.cpp
  if (complexType(c->getType())) return lowerComplexConstruct(c, env); // complex_numbers.cpp
  if (optionalType(c->getType())) return lowerOptionalConstruct(c, env); // optionals.cpp
  if (ctor->isTrivial() || (ctor->isDefaulted() && ctor->getParent()->isAggregate())) {
    if (c->getNumArgs() == 0 && !ctor->isTrivial()) // a default member initialiser makes it non-trivial
      return convert(constructedObject(ctor, nullptr, env), typeOf(c->getType(), loc));
    if (c->getNumArgs() == 0) return ir::Const::zero(typeOf(c->getType(), loc));
    if (c->getNumArgs() == 1 && (ctor->isCopyOrMoveConstructor()))
      return convert(lowerExpr(c->getArg(0), env), typeOf(c->getType(), loc));
  }
  if (ctor->getParent()->isLambda()) fail(loc, "calls to constructors of '" + typeStr(c->getType()) + "' are not supported");
  return lowerClassConstruct(c, env);
}

ir::Expr Lowering::lowerCast(const CastExpr *ce, Env &env) {
  SourceLocation loc = ce->getExprLoc();
  const Expr *sub = ce->getSubExpr();
  switch (ce->getCastKind()) {
  case CK_LValueToRValue:
  case CK_NoOp:
  case CK_ConstructorConversion:
    return lowerExpr(sub, env);
  case CK_IntegralToFloating:
  case CK_FloatingToIntegral:
  case CK_FloatingCast:
  case CK_IntegralCast:
  case CK_IntegralToBoolean:
  case CK_FloatingToBoolean:
  case CK_BooleanToSignedIntegral:
    return convert(lowerExpr(sub, env), typeOf(ce->getType(), loc));
  case CK_ToVoid:
    fail(loc, "casts to void are only supported as statements");
  case CK_ArrayToPointerDecay:
  case CK_NullToPointer:
  case CK_BitCast:
  case CK_PointerToBoolean:
  case CK_PointerToIntegral:
  case CK_IntegralToPointer:
  case CK_LValueToRValueBitCast:
    fail(loc, "pointers are not supported yet");
  case CK_FunctionToPointerDecay:
    fail(loc, "function pointers are not supported");
  case CK_DerivedToBase:
  case CK_UncheckedDerivedToBase:
    return lowerBaseCast(ce, env); // class_layout.cpp
  case CK_BaseToDerived:
  case CK_Dynamic:
    fail(loc, "class hierarchies are not supported");
  case CK_UserDefinedConversion:
    if (ir::Expr set = stdFunctionIsSet(sub)) return set; // `if (g)` (std_function.cpp)
    if (const auto *mc = dyn_cast<CXXMemberCallExpr>(sub->IgnoreParens()))
      if (const Expr *bit = bitElement(mc->getImplicitObjectArgument())) return lowerExpr(bit, env); // a std::vector<bool>'s mask[i]
    if (const auto *mc = dyn_cast<CXXMemberCallExpr>(sub->IgnoreParens()); mc && optionalType(mc->getObjectType()))
      return lowerExpr(mc, env); // `if (o)` (optionals.cpp)
    fail(loc, "user-defined conversions are not supported");
  default:
    fail(loc, std::string("conversion '") + ce->getCastKindName() + "' is not supported");
  }
}

ir::Expr Lowering::lowerInitList(const InitListExpr *il, Env &env) {
  SourceLocation loc = il->getExprLoc();
  QualType qt = il->getType();
  ir::TypeP t = typeOf(qt, loc);
  if (t->isScalar()) {
    if (il->getNumInits() == 0) return ir::Const::zero(t);
    return convert(lowerExpr(il->getInit(0), env), t);
  }
  const RecordDecl *rd = qt->getAsRecordDecl();
  std::vector<ir::Expr> es;
  unsigned i = 0;
  if (const auto *crd = dyn_cast<CXXRecordDecl>(rd); crd && crd->getNumBases()) { // `{{m}, v}`: the base first
    if (il->getNumInits()) es.push_back(convert(lowerExpr(il->getInit(0), env), t->elems[0]));
    else es.push_back(ir::Const::zero(t->elems[0]));
    ++i;
  }
  for (const FieldDecl *f : rd->fields()) { // (an array member: its elements, member_arrays.cpp)
    if (i < il->getNumInits()) memberValues(il->getInit(i), f->getType(), t, env, es);
    else defaultMemberValue(f, t, env, es);
    ++i;
  }
  return ir::Tuple::makeStruct(t, es);
}

// A member left out of braces: its default member initializer, or zero.
void Lowering::defaultMemberValue(const FieldDecl *f, const ir::TypeP &st, Env &env, std::vector<ir::Expr> &es) {
  const Expr *init = f->hasInClassInitializer() ? f->getInClassInitializer() : nullptr;
  memberValues(init, f->getType(), st, env, es);
}

// `T{}` of an aggregate without bases, its default member initializers
// included (the value each element of `std::vector<T> v(n)` starts as);
// null for other classes.
ir::Expr Lowering::aggregateDefault(QualType qt, SourceLocation loc, Env &env) {
  const auto *crd = qt->getAsCXXRecordDecl();
  if (!crd || !crd->hasDefinition() || !crd->isAggregate() || crd->getNumBases()) return nullptr;
  ir::TypeP t = typeOf(qt, loc);
  std::vector<ir::Expr> es;
  for (const FieldDecl *f : crd->fields()) defaultMemberValue(f, t, env, es);
  return ir::Tuple::makeStruct(t, es);
}

} // namespace unfad::frontend
