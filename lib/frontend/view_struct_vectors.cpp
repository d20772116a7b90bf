// Growing std::vectors of view structs and of pointers, as GradBench's lstm
// keeps its per-layer views and its input sequence:
//
//   std::vector<LayerParams<T>> layers;          // structs of `const T*` views
//   layers.reserve(n);
//   for (int i = 0; i < n; ++i) layers.emplace_back(&params[8 * h * i], h);
//   std::vector<const T*> steps;                 // pointers into one array
//   for (int t = 0; t < c; ++t) steps.push_back(&seq[b * t]);
//   model(layers[i], steps[t]);
//
// Such a vector is an array of view structs (view_structs.cpp: one local
// array per leaf, a pointer leaf an array of offsets into the one array all
// elements point into; a vector of pointers has one leaf, the pointer) whose
// length grows as a growing vector's does (growing_vectors.cpp: a length
// variable, buffers allocated where the vector is declared with room for
// the most elements the calls in its scope can reach). `push_back(x)` and
// `emplace_back(args...)` store the new element's leaves at the length;
// `emplace_back` builds it with the element type's constructor that takes
// that many arguments (view_constructors.cpp). Elements are read as those
// of an array of view structs are: `layers[i].weight.forget[k]`,
// `layers[i]` passed to a helper, `steps[t][k]`, `const T* x = steps[t]`.
#include "lowering.h"

#include "unfad/ir/equal.h"

#include <clang/AST/DeclCXX.h>

namespace unfad::frontend {

using namespace clang;

// `std::vector<P>` with P a pointer into arrays of scalars: `elem` is P.
bool Lowering::pointerVector(QualType t, QualType &elem) {
  const auto *sd = dyn_cast_or_null<ClassTemplateSpecializationDecl>(t.getNonReferenceType()->getAsCXXRecordDecl());
  if (!sd || !sd->isInStdNamespace() || !sd->getIdentifier() || sd->getName() != "vector") return false;
  const TemplateArgumentList &args = sd->getTemplateArgs();
  if (args.size() < 1 || args[0].getKind() != TemplateArgument::Type) return false;
  QualType p = args[0].getAsType();
  ArrayInfo ai;
  if (!p->isPointerType() || !arrayInfo(p, ai, SourceLocation())) return false;
  elem = p;
  return true;
}

// `std::vector<V> v;` (V a view struct or a pointer), grown in its scope.
ir::Expr Lowering::lowerViewVector(const VarDecl *vd, QualType elem, Env &env, const Tail &k) {
  SourceLocation loc = vd->getLocation();
  std::string spelled = "'" + typeStr(vd->getType().getNonReferenceType().getUnqualifiedType()) + "'";
  if (vd->getType()->isReferenceType() && bindObjectTableName(vd, vd->getInit(), nullptr)) return k(env); // (object_tables.cpp)
  if (vd->getType()->isReferenceType())
    fail(loc, "references to a " + spelled + " are not supported (use the vector itself)");
  if (objectTableElem(elem)) return lowerObjectTable(vd, elem, env, k); // objects owning arrays (object_tables.cpp)
  // empty, or `n` value-initialised elements (null pointers, zeros) of an aggregate
  ir::Expr size = ir::Const::makeInt(0);
  if (const Expr *init = vd->getInit()) {
    const auto *ce = dyn_cast<CXXConstructExpr>(init->IgnoreImplicit());
    const auto *rd = elem->getAsCXXRecordDecl();
    unsigned given = 0; // (the allocator is a default argument)
    for (unsigned a = 0; ce && a < ce->getNumArgs(); ++a) given += !isa<CXXDefaultArgExpr>(ce->getArg(a));
    bool sized = given == 1 && ce->getArg(0)->getType()->isIntegerType() && (!rd || rd->isAggregate());
    if (!ce || (given != 0 && !sized))
      fail(init->getExprLoc(), "a " + spelled + " must start empty or with a number of elements ('v(n)', of an "
                               "aggregate; grow it with push_back or emplace_back)");
    if (sized) size = lowerIndexExpr(ce->getArg(0), env);
  }
  viewArrays_[vd] = elem;
  Binds binds;
  const ir::Expr initial = bindGrowingLength(vd, size, env, binds);
  struct Buffer {
    std::string name;
    ir::TypeP elem;
  };
  std::vector<Buffer> buffers;
  for (const ViewLeaf &l : viewLeaves(elem)) {
    if (l.vector) fail(loc, "std::vectors of structs with std::vector members are not supported");
    const VarDecl *leaf = leafVar(vd, l.path, l.type);
    leafBase_.erase(leaf);
    ir::TypeP et = l.pointer ? ir::Type::i64() : typeOf(l.type, loc);
    std::string n = names_.fresh(leaf->getNameAsString());
    arrNames_[n] = leaf->getNameAsString();
    env[leaf] = ir::Var::make(n, ir::Type::array(et));
    buffers.push_back({n, et});
  }
  std::set<const ir::Node *> before = growOpsNow();
  ir::Expr scope = k(env);
  ir::Expr room = growthRoom(vd, initial, scope, before);
  for (const Buffer &b : buffers) binds.push_back({b.name, ir::NewArray::make(room, b.elem)});
  return wrap(binds, scope);
}

// The constructor of `rd` that `emplace_back` with `n` arguments calls (the
// one taking n parameters that is not a copy or a move).
static const CXXConstructorDecl *emplacedConstructor(const CXXRecordDecl *rd, unsigned n) {
  const CXXConstructorDecl *found = nullptr;
  for (const CXXConstructorDecl *c : rd->ctors()) {
    if (c->isCopyOrMoveConstructor() || c->isDeleted() || c->getNumParams() != n) continue;
    if (found) return nullptr; // (overloads taking as many: not resolved here)
    found = c;
  }
  return found;
}

// `v.push_back(x)` / `v.emplace_back(args...)`: the new element's leaves
// stored at index `at` of the leaves' arrays.
void Lowering::pushViewElement(const CXXMemberCallExpr *mc, const VarDecl *vd, const ir::Expr &at, Env &env,
                               Binds &pre) {
  SourceLocation loc = mc->getExprLoc();
  QualType elem = viewArrays_.at(vd);
  std::vector<ir::Expr> vals;
  const unsigned n = mc->getNumArgs();
  const bool whole = n == 1 && ctx_.hasSameUnqualifiedType(mc->getArg(0)->getType().getNonReferenceType(), elem);
  if (elem->isPointerType()) {
    const Expr *x = n == 1 ? mc->getArg(0)->IgnoreParenImpCasts() : nullptr;
    if (!x) fail(loc, "'emplace_back' of a pointer takes one argument");
    if (isa<CXXNullPtrLiteralExpr>(x) || x->isNullPointerConstant(ctx_, Expr::NPC_ValueDependentIsNotNull))
      fail(x->getExprLoc(), "null pointers are not supported (a pointer must point into an array)");
    vals.push_back(lowerArrayRef(mc->getArg(0), env));
  } else if (whole || mc->getMethodDecl()->getName() == "push_back") {
    vals = viewValues(mc->getArg(0), elem, env);
  } else {
    const CXXConstructorDecl *ctor = emplacedConstructor(elem->getAsCXXRecordDecl(), n);
    if (!ctor)
      fail(loc, "no single constructor of '" + typeStr(elem) + "' takes " + std::to_string(n) +
                    " arguments ('emplace_back'; write 'push_back(" + typeStr(elem) + "(...))')");
    buildView(ctor, llvm::ArrayRef<const Expr *>(mc->getArgs(), n), loc, elem, env, vals);
  }
  std::vector<ViewLeaf> leaves = viewLeaves(elem);
  for (size_t l = 0; l < leaves.size(); ++l) {
    const VarDecl *leaf = leafVar(vd, leaves[l].path, leaves[l].type);
    ir::Expr v = vals[l];
    if (leaves[l].pointer) {
      if (!v) fail(loc, "a member of the new element points nowhere (a null pointer; it must point into an array)");
      ir::Expr base = ir::rootArray(v);
      if (!base->is<ir::Var>())
        fail(loc, "the elements of '" + vd->getNameAsString() +
                      "' must point into a named array (not into a row of an array of arrays)");
      if (auto b = leafBase_.find(leaf); b != leafBase_.end() && !ir::alphaEqual(b->second, base))
        fail(loc, "the elements of '" + vd->getNameAsString() + "' point into different arrays ('" +
                      leaf->getNameAsString() + "'; not supported: every element's pointer must point into one array)");
      leafBase_[leaf] = base;
      v = ir::viewOffset(v);
    }
    pre.push_back({names_.fresh("_"), store(env.at(leaf), at, v, ir::Store::Mode::Set, loc)});
  }
}

// `steps[t]` of a vector of pointers: the view it holds (null when `e` is
// no such element).
ir::Expr Lowering::viewElementPointer(const Expr *e, Env &env) {
  if (!e->getType()->isPointerType()) return nullptr;
  const VarDecl *root;
  const Expr *index;
  std::vector<int> path;
  if (!viewPlaceShape(e, root, index, path) || !index || !path.empty()) return nullptr;
  ViewPlace pl;
  viewPlace(e, env, pl);
  ir::Expr v = readLeaf(pl, {}, env, e->getExprLoc());
  if (!v) fail(e->getExprLoc(), "'" + root->getNameAsString() + "' holds no pointer yet");
  return v;
}

// `std::vector<V>` with V a view struct or a pointer into arrays: `elem` is V.
bool Lowering::viewVectorType(QualType t, QualType &elem) {
  if (pointerVector(t, elem)) return true;
  ArrayInfo ai;
  if (!t->isRecordType() || !arrayInfo(t, ai, SourceLocation()) || ai.kind != ArrayInfo::Vector) return false;
  if (!ai.elem->isRecordType() || !isViewStruct(ai.elem)) return false;
  elem = ai.elem;
  return true;
}

const VarDecl *Lowering::resolveViewAlias(const VarDecl *v) {
  for (auto it = viewAlias_.find(v); it != viewAlias_.end(); it = viewAlias_.find(v)) v = it->second;
  return v;
}

// The vector of views `e` names: a local one, or the member of an object
// (`model.layers`, `this->layers`, a reference parameter's), as the vector
// it is bound to; null for anything else.
const VarDecl *Lowering::viewVectorOf(const Expr *e) {
  QualType elem;
  if (!e || !viewVectorType(e->getType().getNonReferenceType(), elem)) return nullptr;
  e = e->IgnoreParenImpCasts();
  if (const auto *d = dyn_cast<DeclRefExpr>(e)) {
    const auto *vd = dyn_cast<VarDecl>(d->getDecl());
    return vd && viewArrays_.count(vd) ? vd : nullptr;
  }
  if (!isa<MemberExpr>(e)) return nullptr;
  const VarDecl *root;
  const Expr *index;
  std::vector<int> path;
  if (!viewPlaceShape(e, root, index, path) || index) return nullptr;
  const VarDecl *leaf = resolveViewAlias(leafVar(root, path, e->getType().getNonReferenceType().getUnqualifiedType()));
  return viewArrays_.count(leaf) ? leaf : nullptr;
}

// `Model m(params, h, n);` whose class holds vectors of views (or whose
// constructor has a body): the members the initialisers give, each vector
// of views empty, then the constructor's body on the new object (`this`
// bound to m's leaves; it may grow the vectors, write through the
// pointers, not assign members), then the rest of m's scope. Null when `vd`
// is not such a local.
ir::Expr Lowering::lowerConstructedViewLocal(const VarDecl *vd, Env &env, const Tail &k) {
  QualType t = vd->getType();
  if (t->isReferenceType() || !vd->getInit()) return nullptr;
  const auto *ce = dyn_cast<CXXConstructExpr>(vd->getInit()->IgnoreImplicit());
  if (!ce || ce->getConstructor()->isCopyOrMoveConstructor() || !viewClass(ce->getConstructor()->getParent()))
    return nullptr;
  const auto *ctor = dyn_cast_or_null<CXXConstructorDecl>(ce->getConstructor()->getDefinition());
  const auto *body = ctor ? dyn_cast_or_null<CompoundStmt>(ctor->getBody()) : nullptr;
  struct Vec {
    const VarDecl *leaf;
    QualType elem;
  };
  std::vector<Vec> vecs;
  for (const ViewLeaf &l : viewLeaves(t))
    if (!l.views.isNull()) vecs.push_back({leafVar(vd, l.path, l.type), l.views});
  if (vecs.empty() && (!body || body->body_empty())) return nullptr; // (built by viewValues)
  SourceLocation loc = vd->getLocation();
  std::string spelled = "'" + typeStr(t.getUnqualifiedType()) + "'";
  if (!ctor) fail(loc, "call to the constructor of " + spelled + " whose body is not visible");
  if (body)
    for (const Stmt *s : body->body())
      if (const ReturnStmt *r = findReturn(s))
        fail(r->getBeginLoc(), "'return' in the body of a constructor of " + spelled + " is not supported");
  Binds pre;
  std::vector<ir::Expr> vals;
  auto params = std::make_shared<Env>();
  {
    EffectScope scope(*this, &pre);
    buildView(ce->getConstructor(), llvm::ArrayRef<const Expr *>(ce->getArgs(), ce->getNumArgs()), ce->getExprLoc(), t,
              env, vals, params.get());
  }
  viewReadOnly_.erase(vd);
  bindViewLeaves(vd, t, vals, env, pre, nullptr, /*freshVectors=*/true);
  const VarDecl *tv = thisVar(ctor);
  // the body, on the object whose vectors are bound in `e`
  auto runBody = [=](Env &e) -> ir::Expr {
    if (!body || body->body_empty()) return k(e);
    Env inner = e;
    for (const auto &[d, v] : *params)
      if (!inner.count(d)) inner[d] = v;
    viewThis_.insert(tv);
    viewReadOnly_.insert(tv);
    Binds self;
    bindViewLeaves(tv, t, vals, inner, self, nullptr, /*freshVectors=*/true);
    for (const ViewLeaf &l : viewLeaves(t))
      if (!l.views.isNull()) viewAlias_[leafVar(tv, l.path, l.type)] = leafVar(vd, l.path, l.type);
    thisStack_.push_back(tv);
    Seq rest{body->body_begin(), body->body_end(), nullptr};
    ir::Expr r = lowerSeq(&rest, inner, [&](Env &eb) {
      thisStack_.pop_back();
      Env after = e;
      for (const Vec &v : vecs) after[growLen_.at(v.leaf)] = eb.at(growLen_.at(v.leaf)); // the lengths it left
      ir::Expr out = k(after);
      thisStack_.push_back(tv);
      return out;
    });
    thisStack_.pop_back();
    return wrap(self, r);
  };
  std::function<ir::Expr(size_t, Env &)> bindVectors = [&](size_t i, Env &e) -> ir::Expr {
    if (i == vecs.size()) return runBody(e);
    return lowerViewVector(vecs[i].leaf, vecs[i].elem, e, [&, i](Env &e2) { return bindVectors(i + 1, e2); });
  };
  return wrap(pre, bindVectors(0, env));
}


} // namespace unfad::frontend
