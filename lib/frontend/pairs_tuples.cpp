// std::pair and std::tuple as value types. Their library internals (empty
// bases, template constructors, recursive inheritance) are never lowered:
// a pair or tuple is an IR struct of its elements, named as the type is
// spelled (`std::pair<double, double>`), and its operations are recognised
// by name: constructors, std::make_pair/make_tuple, `.first`/`.second`,
// std::get<I> (and std::get<T>), assignment, `std::tie(a, b) = ...` with
// std::ignore, and structured bindings (`auto [lo, hi] = f(x);`).
//
// A pair's IR fields are `first` and `second`; a tuple's are named
// `std::get<I>`, which the printer writes as `std::get<I>(t)`.
//
// Structured bindings of a pair or tuple bind hidden reference variables
// (Clang's "holding variables") to `std::get<I>(e)`: when the bound object
// is the hidden copy `e` (`auto [a, b] = ...`, `const auto& [a, b] = ...`),
// nothing else can see it, so each binding is an ordinary local of its own
// (named as the user named it); when it is a reference to one of the
// function's variables (`auto& [a, b] = p;`), each binding refers to the
// field of that variable (references.cpp). Bindings of a std::array (also
// `std::get<I>(e)`) refer to its elements, those of the hidden copy when it
// is one. Bindings of a plain struct or a C array are its members or
// elements (Clang's binding expressions), read and written as such.
#include "lowering.h"

#include <clang/AST/DeclCXX.h>
#include <clang/AST/DeclTemplate.h>

namespace unfad::frontend {

using namespace clang;

namespace {

const ClassTemplateSpecializationDecl *tupleLikeSpec(const RecordDecl *rd) {
  const auto *sd = dyn_cast_or_null<ClassTemplateSpecializationDecl>(rd);
  if (!sd || !sd->isInStdNamespace() || !sd->getIdentifier()) return nullptr;
  if (sd->getName() != "pair" && sd->getName() != "tuple") return nullptr;
  return sd;
}

bool isStdIgnore(const Expr *e) {
  const auto *d = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
  const auto *vd = d ? dyn_cast<VarDecl>(d->getDecl()) : nullptr;
  return vd && vd->getIdentifier() && vd->getName() == "ignore" && vd->isInStdNamespace();
}

const FunctionDecl *stdFunction(const CallExpr *ce, llvm::StringRef name) {
  const FunctionDecl *fd = ce ? ce->getDirectCallee() : nullptr;
  if (!fd || !fd->getIdentifier() || fd->getName() != name || !fd->isInStdNamespace()) return nullptr;
  return fd;
}

} // namespace

bool tupleLikeRecord(const RecordDecl *rd) { return tupleLikeSpec(rd) != nullptr; }

bool tupleLike(QualType t, std::vector<QualType> *elems) {
  QualType ct = t.getNonReferenceType().getCanonicalType();
  const auto *sd = tupleLikeSpec(ct->getAsRecordDecl());
  if (!sd) return false;
  if (!elems) return true;
  elems->clear();
  for (const TemplateArgument &a : sd->getTemplateArgs().asArray()) {
    if (a.getKind() == TemplateArgument::Pack) {
      for (const TemplateArgument &p : a.pack_elements()) elems->push_back(p.getAsType());
    } else if (a.getKind() == TemplateArgument::Type) {
      elems->push_back(a.getAsType());
    }
  }
  return true;
}

const Expr *tupleGet(const Expr *e, unsigned &index) {
  const auto *ce = dyn_cast<CallExpr>(stripNoOps(e));
  const FunctionDecl *fd = stdFunction(ce, "get");
  if (!fd || ce->getNumArgs() != 1) return nullptr;
  std::vector<QualType> elems;
  if (!tupleLike(ce->getArg(0)->getType(), &elems)) return nullptr;
  const TemplateArgumentList *targs = fd->getTemplateSpecializationArgs();
  if (!targs || targs->size() < 1) return nullptr;
  const TemplateArgument &a = targs->get(0);
  if (a.getKind() == TemplateArgument::Integral) {
    index = unsigned(a.getAsIntegral().getZExtValue());
    return index < elems.size() ? ce->getArg(0) : nullptr;
  }
  if (a.getKind() == TemplateArgument::Type) { // std::get<double>(t): the one element of that type
    QualType want = a.getAsType().getCanonicalType().getUnqualifiedType();
    for (unsigned k = 0; k < elems.size(); ++k)
      if (elems[k].getCanonicalType().getUnqualifiedType() == want) {
        index = k;
        return ce->getArg(0);
      }
  }
  return nullptr;
}

const Expr *arrayGet(const Expr *e, unsigned &index) {
  const auto *ce = dyn_cast<CallExpr>(stripNoOps(e));
  const FunctionDecl *fd = stdFunction(ce, "get");
  if (!fd || ce->getNumArgs() != 1 || stdContainerElement(ce->getArg(0)->getType(), "array").isNull()) return nullptr;
  const TemplateArgumentList *targs = fd->getTemplateSpecializationArgs();
  if (!targs || targs->size() < 1 || targs->get(0).getKind() != TemplateArgument::Integral) return nullptr;
  index = unsigned(targs->get(0).getAsIntegral().getZExtValue());
  return ce->getArg(0);
}

bool tieAssignment(const Expr *e, std::vector<const Expr *> &targets, const Expr **rhs) {
  if (!e) return false;
  e = stripNoOps(e);
  const auto *oc = dyn_cast<CXXOperatorCallExpr>(e);
  if (!oc || oc->getOperator() != OO_Equal || oc->getNumArgs() != 2) return false;
  const auto *tie = dyn_cast<CallExpr>(oc->getArg(0)->IgnoreImplicit()->IgnoreParens());
  if (!stdFunction(tie, "tie")) return false;
  targets.clear();
  for (const Expr *a : tie->arguments()) targets.push_back(isStdIgnore(a) ? nullptr : a);
  if (rhs) *rhs = oc->getArg(1);
  return true;
}

bool tupleLikeAssign(const CXXOperatorCallExpr *oc) {
  if (oc->getOperator() != OO_Equal || oc->getNumArgs() != 2) return false;
  const auto *m = dyn_cast_or_null<CXXMethodDecl>(oc->getDirectCallee());
  std::vector<QualType> to, from;
  if (!m || !tupleLikeRecord(m->getParent()) || !tupleLike(oc->getArg(0)->getType(), &to) ||
      !tupleLike(oc->getArg(1)->getType(), &from) || to.size() != from.size())
    return false;
  for (QualType t : to) // std::tie's tuple of references is not a value (lowerTieAssign)
    if (t->isReferenceType()) return false;
  return true;
}

ir::TypeP Lowering::tupleLikeType(QualType qt, const std::vector<QualType> &elems, SourceLocation loc) {
  const RecordDecl *rd = qt.getCanonicalType()->getAsRecordDecl();
  std::string spelled = qualTypeStr(ctx_.getRecordType(rd));
  bool pair = tupleLikeSpec(rd)->getName() == "pair";
  std::vector<std::string> fields;
  std::vector<ir::TypeP> types;
  for (size_t k = 0; k < elems.size(); ++k) {
    QualType et = elems[k];
    ArrayInfo ai;
    if (et->isReferenceType())
      fail(loc, "'" + spelled + "', a tuple of references (as std::tie makes), is only supported as the target of an "
                "assignment statement ('std::tie(a, b) = f(x);')");
    if (et->isReferenceType() || et->isPointerType() || arrayInfo(et, ai, SourceLocation()))
      fail(loc, "'" + spelled + "' is not supported: the elements of a std::pair or std::tuple must be scalars or "
                "structs (not '" + typeStr(et) + "')");
    types.push_back(typeOf(et.getUnqualifiedType(), loc));
    fields.push_back(pair ? (k == 0 ? "first" : "second") : "std::get<" + std::to_string(k) + ">");
  }
  auto t = ir::Type::structure(spelled, fields, types);
  structs_[rd] = t;
  return t;
}

ir::Expr Lowering::lowerTupleLikeConstruct(const CXXConstructExpr *c, Env &env) {
  SourceLocation loc = c->getExprLoc();
  ir::TypeP t = typeOf(c->getType(), loc);
  unsigned n = c->getNumArgs();
  while (n > 0 && isa<CXXDefaultArgExpr>(c->getArg(n - 1))) --n;
  if (n == 0) return ir::Const::zero(t); // value-initialised elements
  if (n == 1 && tupleLike(c->getArg(0)->getType())) return convert(lowerExpr(c->getArg(0), env), t); // a copy or a conversion
  if (n == t->elems.size()) {
    std::vector<ir::Expr> es;
    for (unsigned k = 0; k < n; ++k) es.push_back(convert(lowerExpr(c->getArg(k), env), t->elems[k]));
    return ir::Tuple::makeStruct(t, es);
  }
  fail(loc, "this constructor of '" + typeStr(c->getType()) +
                "' is not supported (construct it from its elements, or from another pair or tuple)");
}

ir::Expr Lowering::lowerTupleLikeCall(const CallExpr *ce, const FunctionDecl *fd, Env &env) {
  if (!fd->getIdentifier() || !fd->isInStdNamespace()) return nullptr;
  SourceLocation loc = ce->getExprLoc();
  llvm::StringRef n = fd->getName();
  if ((n == "make_pair" || n == "make_tuple") && tupleLike(ce->getType())) {
    ir::TypeP t = typeOf(ce->getType(), loc);
    if (ce->getNumArgs() != t->elems.size()) fail(loc, "this call of 'std::" + n.str() + "' is not supported");
    std::vector<ir::Expr> es;
    for (unsigned k = 0; k < ce->getNumArgs(); ++k) es.push_back(convert(lowerExpr(ce->getArg(k), env), t->elems[k]));
    return ir::Tuple::makeStruct(t, es);
  }
  if (n == "get") {
    unsigned index = 0;
    if (const Expr *obj = tupleGet(ce, index)) {
      ir::Expr v = lowerExpr(obj, env);
      if (!v->type->isStruct() || index >= v->type->elems.size()) fail(loc, "std::get of a value that is not a pair or tuple");
      return ir::Proj::make(v, int(index));
    }
    ir::Expr array, at; // std::get<I>(a) of a std::array: a[I]
    if (arrayGet(ce, index) && elementRef(ce, env, array, at)) return ir::Index::make(array, at);
    return nullptr;
  }
  if (n == "tie" || n == "forward_as_tuple")
    fail(loc, "'std::" + n.str() + "' is only supported as the target of an assignment statement ('std::tie(a, b) = f(x);')");
  return nullptr;
}

bool Lowering::lowerTieAssign(const Expr *e, const Seq *rest, Env &env, const Tail &tail, ir::Expr &out) {
  std::vector<const Expr *> targets;
  const Expr *rhs = nullptr;
  if (!tieAssignment(e, targets, &rhs)) return false;
  SourceLocation loc = e->getExprLoc();
  Binds pre;
  ir::Expr v;
  {
    EffectScope scope(*this, &pre);
    checkSequenced(e);
    v = lowerExpr(rhs, env);
  }
  if (!v->type->isStruct() || v->type->elems.size() != targets.size())
    fail(loc, "this assignment to 'std::tie(...)' is not supported (the right side must be a pair or tuple of as many elements)");
  std::string tn = names_.fresh("tied");
  pre.push_back({tn, v});
  ir::Expr tied = ir::Var::make(tn, v->type);
  for (size_t k = 0; k < targets.size(); ++k) {
    if (!targets[k]) continue; // std::ignore
    std::vector<int> path;
    const VarDecl *root;
    {
      Env *saved = indexEnv_;
      indexEnv_ = &env;
      root = assignedRoot(targets[k], path, true);
      indexEnv_ = saved;
    }
    if (!env.count(root))
      fail(targets[k]->getExprLoc(), "assignment to '" + root->getNameAsString() + "' which is not a local variable");
    std::string n = names_.fresh(root->getName().empty() ? "v" : root->getNameAsString());
    ir::Expr nv = updatePath(env.at(root), path, 0, ir::Proj::make(tied, int(k)));
    pre.push_back({n, nv});
    env[root] = ir::Var::make(n, nv->type);
  }
  out = wrap(pre, lowerSeq(rest, env, tail));
  return true;
}

// A structured binding's holding variable (a reference to `std::get<I>(e)`):
// the field of the variable `e` refers to (`auto& [a, b] = p;`), or, when
// `e` is the binding's own hidden object, a local of its own.
ir::Expr Lowering::lowerHoldingVar(const VarDecl *vd, Env &env, const Tail &k) {
  unsigned index = 0;
  const Expr *obj = tupleGet(vd->getInit(), index);
  const bool element = !obj && (obj = arrayGet(vd->getInit(), index)); // of a std::array
  const auto *d = obj ? dyn_cast<DeclRefExpr>(stripNoOps(obj)) : nullptr;
  const auto *dd = d ? dyn_cast<DecompositionDecl>(d->getDecl()) : nullptr;
  if (auto p = dd ? refPairs_.find(dd) : refPairs_.end(); p != refPairs_.end()) { // of std::minmax(a, b)
    refs_[vd] = index == 0 ? p->second.first : p->second.second;
    return k(env);
  }
  if (auto p = dd ? positionPairs_.find(dd) : positionPairs_.end(); p != positionPairs_.end()) {
    // a position of std::minmax_element (iterators.cpp): an iterator local
    const ir::Expr &at = index == 0 ? p->second.first : p->second.second;
    ptrBase_[vd] = ir::rootArray(at);
    env[vd] = ir::viewOffset(at);
    return k(env);
  }
  if (dd && (refOf(dd) || element)) { // (of a std::array: its element, also of the hidden copy's)
    Binds binds;
    RefTarget t;
    if (!lvalueTarget(vd->getInit(), env, t, binds))
      fail(vd->getLocation(), "this structured binding is not supported ('" + vd->getNameAsString() + "')");
    refs_[vd] = t;
    return wrap(binds, k(env));
  }
  ir::Expr init = lowerExpr(vd->getInit(), env);
  std::string n = names_.fresh(vd->getName().empty() ? "v" : vd->getNameAsString());
  env[vd] = ir::Var::make(n, init->type);
  ir::Expr body = k(env);
  return ir::Let::make(n, init, body);
}

std::string Lowering::decompositionName(const VarDecl *vd) {
  const auto *dd = dyn_cast<DecompositionDecl>(vd);
  if (!dd) return vd->getName().empty() ? "v" : vd->getNameAsString();
  std::string n;
  for (const BindingDecl *b : dd->bindings()) n += (n.empty() ? "" : "_") + b->getNameAsString();
  return n.empty() ? "v" : n;
}

} // namespace unfad::frontend
