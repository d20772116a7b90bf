// View structs built by constructors, as GradBench's lstm writes its weight
// and state views:
//
//   template <class T> struct WeightOrBias {
//     const T* forget; const T* ingate;
//     WeightOrBias(const T* p, int h) : forget(p), ingate(&p[h]) {}
//   };
//   template <class T> struct LayerParams {
//     const WeightOrBias<T> weight, bias;
//     LayerParams(const T* p, int h) : weight(p, h), bias(&p[4 * h], h) {}
//   };
//   LayerParams<double> layer(params, h);
//
// Such a class is split into its leaves like an aggregate view struct
// (view_structs.cpp). A constructor call is evaluated member by member, in
// declaration order: the member-initialiser list, else the default member
// initialiser, else zero (a null pointer, which must not be read); a member
// that is a view struct itself is built by its own initialiser (a nested
// constructor call, braces, a copy). The constructor's parameters are bound
// to the call's arguments: a pointer to the argument's view, a value to a
// let. A body with statements runs on the new object as a method does
// (view_struct_vectors.cpp: `layer_params.reserve(n); for (...)
// layer_params.emplace_back(...)`).
#include "lowering.h"

#include <clang/AST/DeclCXX.h>

namespace unfad::frontend {

using namespace clang;

// A class that is not an aggregate but copies as its members do: no bases,
// no virtual functions, no user-declared copy, move or destructor (so the
// split's copies of its leaves are its copies).
bool Lowering::viewClass(const CXXRecordDecl *rd) {
  if (!rd || !rd->hasDefinition() || rd->isAggregate() || rd->getNumBases() || rd->isPolymorphic()) return false;
  return !rd->hasUserDeclaredCopyConstructor() && !rd->hasUserDeclaredMoveConstructor() &&
         !rd->hasUserDeclaredCopyAssignment() && !rd->hasUserDeclaredMoveAssignment() &&
         !rd->hasUserDeclaredDestructor();
}

// The leaves of the object `ce` constructs (a constructor of a view struct
// that is not a copy or a move); false when `ce` is not such a call.
bool Lowering::constructedView(const CXXConstructExpr *ce, QualType t, Env &env, std::vector<ir::Expr> &out) {
  const CXXConstructorDecl *decl = ce->getConstructor();
  if (decl->isCopyOrMoveConstructor() || !viewClass(decl->getParent())) return false;
  buildView(decl, llvm::ArrayRef<const Expr *>(ce->getArgs(), ce->getNumArgs()), ce->getExprLoc(), t, env, out);
  return true;
}

// The leaves of the object the constructor `decl` builds from `args` (a
// constructor call, or the arguments `emplace_back` forwards).
void Lowering::buildView(const CXXConstructorDecl *decl, llvm::ArrayRef<const Expr *> args, SourceLocation loc,
                         QualType t, Env &env, std::vector<ir::Expr> &out, Env *params) {
  std::string spelled = "'" + typeStr(t.getUnqualifiedType()) + "'";
  const auto *ctor = dyn_cast_or_null<CXXConstructorDecl>(decl->getDefinition());
  if (!ctor || (!ctor->hasBody() && !ctor->isDefaulted()))
    fail(loc, "call to the constructor of " + spelled + " whose body is not visible");
  for (const CXXCtorInitializer *ci : ctor->inits())
    if (ci->isDelegatingInitializer() || ci->isBaseInitializer())
      fail(loc, "delegating constructors of " + spelled + " (a struct with pointer members) are not supported");
  // The parameters, bound where the initialisers are lowered.
  Env inner = env;
  if (args.size() != ctor->getNumParams())
    fail(loc, "default arguments of constructors of " + spelled + " (a struct with pointer members) are not supported here");
  for (unsigned a = 0; a < args.size() && a < ctor->getNumParams(); ++a) {
    const ParmVarDecl *p = ctor->getParamDecl(a);
    if (isViewStruct(p->getType())) {
      QualType pt = p->getType().getNonReferenceType();
      if (!effects_) fail(args[a]->getExprLoc(), "a struct with pointer members passed to a constructor here is not supported");
      bindViewLeaves(p, pt, viewValues(args[a], pt, env), inner, *effects_, args[a]);
      continue;
    }
    if (byValueArrayParam(p) && effects_) { // the constructor's own copy
      inner[p] = copiedArgument(args[a], p, env, *effects_);
      continue;
    }
    ir::TypeP pt = paramType(p);
    if (pt->isArray()) {
      inner[p] = lowerArrayRef(args[a], env);
      continue;
    }
    ir::Expr v = convert(lowerExpr(args[a], env), pt);
    inner[p] = letOrValue(p->getName().empty() ? "arg" : p->getNameAsString(), v);
  }
  const RecordDecl *rd = t.getCanonicalType()->getAsRecordDecl();
  for (const FieldDecl *f : rd->fields()) {
    const Expr *init = memberInitExpr(ctor, f);
    QualType ft = f->getType();
    if (QualType e; viewVectorType(ft, e)) { // made empty by the caller (view_struct_vectors.cpp)
      if (init && !(isa<CXXConstructExpr>(init) && cast<CXXConstructExpr>(init)->getNumArgs() == 0))
        fail(init->getExprLoc(), "a member '" + typeStr(ft) + "' must start empty (grow it with push_back or "
                                 "emplace_back in the constructor's body)");
      out.push_back(nullptr);
    } else if (isViewStruct(ft)) {
      for (ir::Expr &v : viewValues(init, ft, inner)) out.push_back(v);
    } else if (vectorMember(ft)) {
      fail(init ? init->getExprLoc() : loc, "objects of " + spelled + " (a class with pointer and std::vector "
                                                                      "members) are not supported yet");
    } else if (ft->isPointerType()) {
      bool null = !init || isa<ImplicitValueInitExpr>(init) || isa<CXXNullPtrLiteralExpr>(init->IgnoreParenImpCasts()) ||
                  init->isNullPointerConstant(ctx_, Expr::NPC_ValueDependentIsNotNull);
      out.push_back(null ? nullptr : lowerArrayRef(init, inner));
    } else {
      ir::TypeP ftt = typeOf(ft.getUnqualifiedType(), f->getLocation());
      bool zero = !init || isa<ImplicitValueInitExpr>(init) ||
                  (isa<CXXConstructExpr>(init) && cast<CXXConstructExpr>(init)->getNumArgs() == 0);
      out.push_back(zero ? ir::Const::zero(ftt) : convert(lowerExpr(init, inner), ftt));
    }
  }
  if (params) {
    *params = inner;
    return; // (the caller runs the body)
  }
  if (const auto *body = dyn_cast_or_null<CompoundStmt>(ctor->getBody()); body && !body->body_empty())
    fail(body->body_front()->getBeginLoc(), "a constructor of " + spelled + " (a struct with pointer members) with "
                                            "statements in its body is supported only for a local variable ('" +
                                            typeStr(t.getUnqualifiedType()) + " x(...);')");
}

// A let of the constructor's argument: into the enclosing statement's
// effects when there are any (the value is computed once), else the value
// itself (read where it is used; arguments without side effects).
ir::Expr Lowering::letOrValue(const std::string &name, const ir::Expr &v) {
  if (!effects_ || v->is<ir::Const>() || v->is<ir::Var>()) return v;
  std::string n = names_.fresh(name);
  effects_->push_back({n, v});
  return ir::Var::make(n, v->type);
}

} // namespace unfad::frontend
