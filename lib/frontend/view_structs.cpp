// Structs whose members are pointers into arrays ("view structs"), such as
// the per-layer weight and bias views of a recurrent network:
//
//   struct Layer { const double* w; const double* b; int n; };
//   Layer l{p + k * h, p + 4 * h + k, h};   // or member by member
//   Layer layers[2];                         // an array of them
//
// A view struct has no IR type of its own. Each of its members (a leaf;
// members that are view structs themselves are looked through) becomes a
// local variable of its own, a synthetic VarDecl named after the member
// (`l_w`): a pointer member is then a pointer local (pointers.cpp: the array
// it points into, fixed by its first assignment, and an SSA offset), any
// other member an ordinary local. Loops and ifs carry them like any local,
// and `l.w[i]`, `*l.b`, `l.w + k`, `l.n` read them. A local array of view
// structs is one local array per leaf (the offsets, for pointer members;
// every element's member points into the same array).
//
// Helpers taking a view struct (by value or by reference) or returning a
// pointer are lowered into their callers (references.cpp lowerInlinedCall):
// the parameter's members are bound to the argument's, and a returned
// pointer must point into one of the caller's arrays (not into the helper's
// own local arrays, which no longer exist after the call).
//
// Aggregates with std::vector members (`struct Model { std::vector<double>
// w; double bias; }`) are split the same way, a vector member being a leaf
// that is an array (the IR's array variable itself: a vector's view always
// starts at its first element). A copy of such a struct would copy its
// vectors, which the split cannot do (its leaves would alias the original's
// arrays), so only references to them and `const` copies (which nothing can
// write) are taken: marked-function parameters (struct_params.cpp), helper
// parameters, reference locals.
#include "lowering.h"

#include "unfad/ir/equal.h"

#include <clang/AST/DeclCXX.h>

#include <algorithm>

namespace unfad::frontend {

using namespace clang;

// (the declaration: lowering.h)
const Expr *stripCopies(const Expr *e) {
  while (true) {
    e = stripNoOps(e); // (parentheses, no-op casts, cleanups)
    if (const auto *m = dyn_cast<MaterializeTemporaryExpr>(e)) e = m->getSubExpr();
    else if (const auto *b = dyn_cast<CXXBindTemporaryExpr>(e)) e = b->getSubExpr();
    else if (const auto *f = dyn_cast<CXXFunctionalCastExpr>(e)) e = f->getSubExpr();
    else if (const auto *c = dyn_cast<ImplicitCastExpr>(e);
             c && (c->getCastKind() == CK_LValueToRValue || c->getCastKind() == CK_ConstructorConversion))
      e = c->getSubExpr();
    else if (const auto *ce = dyn_cast<CXXConstructExpr>(e);
             ce && ce->getNumArgs() == 1 && ce->getConstructor()->isCopyOrMoveConstructor())
      e = ce->getArg(0);
    else if (const auto *call = dyn_cast<CallExpr>(e); call && call->getNumArgs() == 1 && call->getDirectCallee() &&
                                                       call->getDirectCallee()->isInStdNamespace() &&
                                                       call->getDirectCallee()->getIdentifier() &&
                                                       (call->getDirectCallee()->getName() == "move" ||
                                                        call->getDirectCallee()->getName() == "forward"))
      e = call->getArg(0); // `std::move(m)`: the object m
    else return e;
  }
}

namespace {

bool isNull(const Expr *x, ASTContext &ctx) {
  x = x->IgnoreParenImpCasts();
  return isa<CXXNullPtrLiteralExpr>(x) || isa<ImplicitValueInitExpr>(x) ||
         x->isNullPointerConstant(ctx, Expr::NPC_ValueDependentIsNotNull);
}

// The name of the array variable a view's root is (or is a row of).
std::string arrayName(const ir::Expr &e) {
  const ir::Expr &r = ir::rootArray(e);
  if (const auto *v = r->as<ir::Var>()) return v->name;
  if (const auto *i = r->as<ir::Index>()) return arrayName(i->array);
  return "";
}

} // namespace

bool Lowering::isViewStruct(QualType t) {
  t = t.getNonReferenceType();
  const auto *rd = t.getCanonicalType()->getAsCXXRecordDecl();
  if (!rd || iteratorKind(t) != IteratorKind::None || !rd->getDefinition() || rd->isUnion() || rd->isLambda() || rd->isInStdNamespace()) return false;
  if (rd->getNumBases() || rd->isPolymorphic() || (!rd->isAggregate() && !ownsVector(rd) && !viewClass(rd)))
    return false; // (vector_members.cpp, view_constructors.cpp)
  if (viewDepth_ > 8) return false; // (a vector of its own type among its members)
  if (passiveClass(t)) return false; // (passive data: passive_data.cpp)
  ++viewDepth_;
  struct Depth {
    int &d;
    ~Depth() { --d; }
  } depth{viewDepth_};
  for (const FieldDecl *f : rd->fields()) {
    QualType ft = f->getType();
    if (ArrayInfo ai; ft->isPointerType() && arrayInfo(ft, ai, SourceLocation())) return true;
    if (ft->isRecordType() && isViewStruct(ft)) return true;
    if (vectorMember(ft)) return true;
    if (QualType e; viewVectorType(ft, e)) return true; // (view_struct_vectors.cpp)
  }
  return false;
}

// A member that is a std::vector of scalars or of structs of scalars.
bool Lowering::vectorMember(QualType t) {
  ArrayInfo ai;
  return !t->isReferenceType() && arrayInfo(t, ai, SourceLocation()) && ai.kind == ArrayInfo::Vector &&
         !(ai.elem->isRecordType() && isViewStruct(ai.elem)); // (of views: view_struct_vectors.cpp)
}

bool Lowering::hasVectorMember(QualType t) {
  for (const ViewLeaf &l : viewLeaves(t))
    if (l.vector) return true;
  return false;
}

// A variable of a struct with std::vector members that is not a reference
// (a local copy, a by-value parameter) owns vectors of its own: fresh arrays
// filled from the source's (vector_members.cpp copyVectorLeaf).
bool Lowering::copiesVectors(const VarDecl *vd, QualType t) {
  return !vd->getType()->isReferenceType() && hasVectorMember(t) && !viewThis_.count(vd) && !viewPointers_.count(vd);
}

// `void fill(Mat* m)`: a pointer to one object of a split class (as C-style
// code passes an object to be filled), not into an array of them.
bool Lowering::viewPointerParam(const ParmVarDecl *p) {
  QualType t = p->getType();
  return t->isPointerType() && !isa<DecayedType>(t.getTypePtr()) && isViewStruct(t->getPointeeType()) &&
         hasVectorMember(t->getPointeeType());
}

// The struct a view root's leaves split: its type, or what it points to.
QualType Lowering::viewRootType(const VarDecl *root) {
  QualType t = root->getType().getNonReferenceType();
  return viewPointers_.count(root) ? t->getPointeeType() : t;
}

// `*p` (or `p` itself, as `p->f` reads it) of such a parameter: `p`.
const Expr *Lowering::viewPointerDeref(const Expr *e) {
  const Expr *x = e->IgnoreParenImpCasts();
  if (const auto *u = dyn_cast<UnaryOperator>(x); u && u->getOpcode() == UO_Deref) x = u->getSubExpr()->IgnoreParenImpCasts();
  const auto *d = dyn_cast<DeclRefExpr>(x);
  const auto *vd = d ? dyn_cast<VarDecl>(d->getDecl()) : nullptr;
  return vd && viewPointers_.count(vd) ? d : nullptr;
}

std::vector<Lowering::ViewLeaf> Lowering::viewLeaves(QualType t) {
  std::vector<ViewLeaf> out;
  t = t.getNonReferenceType();
  if (!isViewStruct(t)) {
    out.push_back({{}, t.getUnqualifiedType(), t->isPointerType(), vectorMember(t)});
    if (QualType e; viewVectorType(t, e)) out.back().views = e;
    return out;
  }
  const RecordDecl *rd = t.getCanonicalType()->getAsRecordDecl();
  for (const FieldDecl *f : rd->fields()) {
    if (ownedBuffer(f)) { // (an array of the object's own, as a std::vector member: owned_buffers.cpp)
      out.push_back({{int(f->getFieldIndex())}, f->getType().getUnqualifiedType(), false, true, {}});
      continue;
    }
    for (ViewLeaf l : viewLeaves(f->getType())) {
      l.path.insert(l.path.begin(), int(f->getFieldIndex()));
      out.push_back(l);
    }
  }
  return out;
}

// The local variable that holds member `path` of `root` (its elements, for
// an array of view structs), made once.
const VarDecl *Lowering::leafVar(const VarDecl *root, const std::vector<int> &path, QualType type) {
  auto key = std::make_pair(root, path);
  if (auto it = leafVars_.find(key); it != leafVars_.end()) return it->second;
  std::string name = root->getNameAsString();
  QualType t = viewRootType(root);
  if (auto it = viewArrays_.find(root); it != viewArrays_.end()) t = it->second;
  for (int k : path) {
    const RecordDecl *rd = t.getCanonicalType()->getAsRecordDecl();
    const FieldDecl *f = *std::next(rd->field_begin(), k);
    name += "_" + f->getNameAsString();
    t = f->getType();
  }
  auto *dc = const_cast<DeclContext *>(root->getDeclContext());
  VarDecl *vd = VarDecl::Create(ctx_, dc, root->getBeginLoc(), root->getLocation(), &ctx_.Idents.get(name), type,
                                ctx_.getTrivialTypeSourceInfo(type), SC_None);
  leafVars_[key] = vd;
  leafDecls_.insert(vd);
  return vd;
}

// `s.a.b`, `layers[k].w`: the view struct local or array it is rooted at,
// without lowering anything.
bool Lowering::viewPlaceShape(const Expr *e, const VarDecl *&root, const Expr *&index, std::vector<int> &path) {
  e = stripCopies(e);
  while (const auto *m = dyn_cast<MemberExpr>(e)) {
    const auto *f = dyn_cast<FieldDecl>(m->getMemberDecl());
    if (!f || (m->isArrow() && !viewThisRoot(m->getBase()) && !viewPointerDeref(m->getBase()))) return false;
    path.insert(path.begin(), int(f->getFieldIndex()));
    e = stripCopies(m->getBase());
    if (m->isArrow()) break; // this->f in a method of a class owning vectors, or p->f
  }
  if (const Expr *p = viewPointerDeref(e)) e = p; // *p: the object p points to
  index = nullptr;
  if (const VarDecl *self = viewThisRoot(e)) return root = self, true; // (vector_members.cpp)
  const Expr *arr = nullptr;
  if (const auto *s = dyn_cast<ArraySubscriptExpr>(e)) arr = s->getBase(), index = s->getIdx();
  else if (const auto *oc = dyn_cast<CXXOperatorCallExpr>(e); oc && oc->getOperator() == OO_Subscript && oc->getNumArgs() == 2)
    arr = oc->getArg(0), index = oc->getArg(1);
  const auto *d = dyn_cast<DeclRefExpr>(arr ? arr->IgnoreParenImpCasts() : e);
  const VarDecl *vd = d ? dyn_cast<VarDecl>(d->getDecl()) : nullptr;
  if (!vd && arr) vd = viewVectorOf(arr); // `model.layers[i]`, `this->layers[i]` (view_struct_vectors.cpp)
  if (vd) vd = resolveViewAlias(vd);
  if (vd && !arr && !viewLocals_.count(vd) && vd->getType()->isReferenceType() && !isa<ParmVarDecl>(vd) &&
      vd->getInit() && isViewStruct(vd->getType())) {
    // a reference local not bound yet (collectAssigned looking ahead into a
    // loop body): the object its initializer names
    std::vector<int> at;
    if (!viewPlaceShape(vd->getInit(), root, index, at)) return false;
    path.insert(path.begin(), at.begin(), at.end());
    return true;
  }
  if (!vd || (arr ? !viewArrays_.count(vd) : !viewLocals_.count(vd))) return false;
  root = vd;
  return true;
}

bool Lowering::viewPlace(const Expr *e, Env &env, ViewPlace &out) {
  const Expr *index = nullptr;
  out.path.clear();
  if (!viewPlaceShape(e, out.root, index, out.path)) return false;
  out.index = index ? lowerIndexExpr(index, env) : nullptr;
  out.type = e->getType().getNonReferenceType();
  if (auto a = placeAlias_.find(out.root); a != placeAlias_.end() && !index) { // an element of an object table
    out.root = a->second.root;
    out.index = a->second.index;
    out.path.insert(out.path.begin(), a->second.path.begin(), a->second.path.end());
  }
  return true;
}

// Member `path` of the place's root: a view for a pointer member (null
// while it points nowhere yet), the value otherwise.
ir::Expr Lowering::readLeaf(const ViewPlace &pl, const std::vector<int> &path, Env &env, SourceLocation loc) {
  QualType t = pl.index ? viewArrays_.at(pl.root) : viewRootType(pl.root);
  const FieldDecl *field = nullptr;
  for (int k : path) t = (field = *std::next(t.getCanonicalType()->getAsRecordDecl()->field_begin(), k))->getType();
  const VarDecl *leaf = leafVar(pl.root, path, t);
  if (!pl.index) {
    if (QualType e; viewVectorType(t, e)) return nullptr; // (bound through viewAlias_)
    if (t->isPointerType() && !ptrBase_.count(leaf) && !ownedBuffer(field)) return nullptr;
    return lookupVar(leaf, env, loc);
  }
  if (ir::Expr row = objectRowView(env.at(leaf), pl.index)) return row; // its array (object_tables.cpp)
  ir::Expr v = read(env.at(leaf), pl.index, loc);
  if (!t->isPointerType()) return v;
  auto b = leafBase_.find(leaf);
  return b == leafBase_.end() ? nullptr : ir::View::make(b->second, v);
}

// A member read `s.w`, `s.n`, `layers[k].b` (a leaf); null for anything else.
ir::Expr Lowering::viewMember(const MemberExpr *m, Env &env) {
  if (isViewStruct(m->getType())) return nullptr;
  const VarDecl *root;
  const Expr *index;
  std::vector<int> path;
  if (!viewPlaceShape(m, root, index, path)) return nullptr;
  ViewPlace pl;
  viewPlace(m, env, pl);
  ir::Expr v = readLeaf(pl, pl.path, env, m->getExprLoc());
  if (!v)
    fail(m->getExprLoc(), "member '" + m->getMemberDecl()->getNameAsString() +
                              "' is used before it is made to point into an array");
  return v;
}

// The value of the view struct `e` (of type `t`), one expression per leaf:
// a view (null: points nowhere) or a value.
std::vector<ir::Expr> Lowering::viewValues(const Expr *e, QualType t, Env &env) {
  std::vector<ir::Expr> out;
  SourceLocation loc = e ? e->getExprLoc() : SourceLocation();
  const Expr *x = e ? stripCopies(e) : nullptr;
  if (!x || isa<ImplicitValueInitExpr>(x) || isa<CXXScalarValueInitExpr>(x) ||
      (isa<CXXConstructExpr>(x) && cast<CXXConstructExpr>(x)->getNumArgs() == 0)) {
    for (const ViewLeaf &l : viewLeaves(t)) {
      if (l.vector) fail(loc, "objects of '" + typeStr(t.getUnqualifiedType()) + "' (a struct with std::vector members) "
                              "made here are not supported yet (pass one by reference)");
      out.push_back(l.pointer ? nullptr : ir::Const::zero(typeOf(l.type, loc)));
    }
    return out;
  }
  if (const auto *ce = dyn_cast<CXXConstructExpr>(x); ce && constructedView(ce, t, env, out)) return out;
  if (const auto *il = dyn_cast<InitListExpr>(x)) {
    if (il->isSyntacticForm() && il->getSemanticForm()) il = il->getSemanticForm();
    const RecordDecl *rd = t.getCanonicalType()->getAsRecordDecl();
    for (const FieldDecl *f : rd->fields()) {
      unsigned k = f->getFieldIndex();
      const Expr *init = k < il->getNumInits() ? il->getInit(k) : nullptr;
      QualType ft = f->getType();
      if (vectorMember(ft) || (isViewStruct(ft) && hasVectorMember(ft)))
        fail(init ? init->getExprLoc() : loc, "objects of '" + typeStr(t.getUnqualifiedType()) +
                                                  "' (a struct with std::vector members) made here are not supported yet "
                                                  "(pass one by reference)");
      if (isViewStruct(ft)) {
        for (ir::Expr &v : viewValues(init, ft, env)) out.push_back(v);
      } else if (ft->isPointerType()) {
        out.push_back(!init || isNull(init, ctx_) ? nullptr : lowerArrayRef(init, env));
      } else {
        ir::TypeP ftt = typeOf(ft.getUnqualifiedType(), f->getLocation());
        bool zero = !init || isa<ImplicitValueInitExpr>(init->IgnoreParenImpCasts());
        out.push_back(zero ? ir::Const::zero(ftt) : convert(lowerExpr(init, env), ftt));
      }
    }
    return out;
  }
  ViewPlace pl;
  if (viewPlace(x, env, pl)) {
    for (const ViewLeaf &l : viewLeaves(t)) {
      std::vector<int> path = pl.path;
      path.insert(path.end(), l.path.begin(), l.path.end());
      out.push_back(readLeaf(pl, path, env, loc));
    }
    return out;
  }
  if (const auto *c = dyn_cast<CallExpr>(x))
    if (auto it = returnedObjects_.find(c); it != returnedObjects_.end()) return it->second; // (vector_members.cpp)
  std::string spelled = "'" + typeStr(t.getUnqualifiedType()) + "'";
  if (isa<CallExpr>(x)) fail(loc, "functions returning " + spelled + " (a struct with pointer members) are not supported");
  fail(loc, "this value of " + spelled + " (a struct with pointer members) is not supported (use a local of that type, an element of a local array of them, or an initializer list)");
}

// Binds the leaves of `root` (of type `t`) to `vals`.
void Lowering::bindViewLeaves(const VarDecl *root, QualType t, const std::vector<ir::Expr> &vals, Env &env,
                              Binds &binds, const Expr *from, bool freshVectors) {
  std::vector<ViewLeaf> leaves = viewLeaves(t);
  bool copy = copiesVectors(root, t) && !freshObject(from);
  if (const auto *rd = t->getAsCXXRecordDecl(); copy && rd && rd->hasUserDeclaredCopyConstructor())
    for (const CXXConstructorDecl *c : rd->ctors())
      if (userCopy(c)) // (a local `Mat b = a;` runs it: vector_members.cpp)
        fail(from ? from->getExprLoc() : root->getLocation(),
             "this copy of a '" + typeStr(t.getUnqualifiedType()) + "' is not supported: its class has a copy "
             "constructor of its own, which unfad runs only for a local made by it ('" + typeStr(t.getUnqualifiedType()) +
             " b = a;'); pass the object by const reference");
  viewLocals_.insert(root);
  for (size_t k = 0; k < leaves.size(); ++k) {
    const VarDecl *leaf = leafVar(root, leaves[k].path, leaves[k].type);
    ir::Expr v = vals[k];
    if (!leaves[k].views.isNull()) { // the vector `from` holds (view_struct_vectors.cpp)
      if (freshVectors) continue;
      const VarDecl *src = nullptr;
      const VarDecl *fromRoot;
      const Expr *index;
      std::vector<int> path;
      if (from && viewPlaceShape(from, fromRoot, index, path) && !index) {
        path.insert(path.end(), leaves[k].path.begin(), leaves[k].path.end());
        src = resolveViewAlias(leafVar(fromRoot, path, leaves[k].type));
      }
      if (!src || !viewArrays_.count(src))
        fail(from ? from->getExprLoc() : root->getLocation(),
             "this copy of a '" + typeStr(t.getUnqualifiedType()) + "', which holds a std::vector of views, is not "
             "supported (pass the object by reference)");
      viewAlias_[leaf] = src;
      continue;
    }
    if (leaves[k].vector) { // the array itself (never rebound), or a copy
      env[leaf] = copy ? copyVectorLeaf(leaf, v, binds) : v;
      continue;
    }
    std::string n = leaf->getNameAsString();
    refs_.erase(leaf); // (a writable name binds it again: written_members.cpp)
    if (leaves[k].pointer) {
      ptrBase_.erase(leaf);
      if (v) {
        const ir::Expr &base = ir::rootArray(v);
        if (!base->is<ir::Var>() && !base->is<ir::Index>())
          fail(root->getLocation(), "member '" + n + "' does not point into a named array");
        ptrBase_[leaf] = base;
      }
      v = v ? ir::viewOffset(v) : ir::Const::makeInt(0);
      n += "_offset";
    }
    n = names_.fresh(n);
    binds.push_back({n, v});
    env[leaf] = ir::Var::make(n, v->type);
  }
}

// `Layer l{...};`, `Layer l;`, `Layer l = layers[k];`, `const Layer& l = ...`
// (a copy: nothing can change the struct it names but the assignments of
// its members, which a non-const reference may not do).
ir::Expr Lowering::lowerViewStructLocal(const VarDecl *vd, Env &env, const Tail &k) {
  QualType t = vd->getType().getNonReferenceType();
  if (const ConditionalOperator *co = chosenObject(vd)) return lowerChosenObjectLocal(vd, co, env, k); // (chosen_objects.cpp)
  if (ir::Expr built = lowerVectorObjectLocal(vd, env, k)) return built; // constructed in place (vector_members.cpp)
  if (ir::Expr built = lowerConstructedViewLocal(vd, env, k)) return built; // (view_struct_vectors.cpp)
  Binds pre, binds;
  std::vector<ir::Expr> vals;
  {
    EffectScope scope(*this, &pre);
    vals = viewValues(vd->getInit(), t, env);
  }
  bool writable = vd->getType()->isReferenceType() && !t.isConstQualified();
  if (writable) viewReadOnly_.insert(vd);
  else viewReadOnly_.erase(vd);
  bindViewLeaves(vd, t, vals, env, binds, vd->getInit());
  if (vd->getType()->isReferenceType()) aliasNumberLeaves(env, vd, t, vd->getInit(), writable, nullptr); // (written_members.cpp)
  for (auto &b : binds) pre.push_back(b);
  return wrap(pre, k(env));
}

// `Layer layers[N];` / `std::array<Layer, N> layers;` (optionally with an
// initializer list): one local array per leaf.
ir::Expr Lowering::lowerViewStructArray(const VarDecl *vd, const ArrayInfo &ai, Env &env, const Tail &k) {
  SourceLocation loc = vd->getLocation();
  if (ai.kind == ArrayInfo::Vector) return lowerViewVector(vd, ai.elem, env, k); // (view_struct_vectors.cpp)
  if (ai.kind == ArrayInfo::Pointer || ai.size < 0 || vd->getType()->isReferenceType())
    fail(loc, "arrays of '" + typeStr(ai.elem) + "' (a struct with pointer members) are supported only as local "
              "arrays of a constant size ('" + typeStr(ai.elem) + " a[N]', 'std::array')");
  if (hasVectorMember(ai.elem))
    fail(loc, "arrays of '" + typeStr(ai.elem) + "' (a struct with std::vector members) are not supported yet");
  for (const ViewLeaf &l : viewLeaves(ai.elem))
    if (!l.views.isNull())
      fail(loc, "arrays of '" + typeStr(ai.elem) + "' (a struct holding a std::vector of views) are not supported");
  viewArrays_[vd] = ai.elem;
  std::vector<ViewLeaf> leaves = viewLeaves(ai.elem);
  std::vector<std::vector<ir::Expr>> elems(leaves.size());
  Binds pre;
  const Expr *init = vd->getInit() ? stripCopies(vd->getInit()) : nullptr;
  if (const auto *il = init ? dyn_cast<InitListExpr>(init) : nullptr) {
    EffectScope scope(*this, &pre);
    if (ai.kind == ArrayInfo::StdArray && il->getNumInits() == 1 && isa<InitListExpr>(stripCopies(il->getInit(0))))
      il = cast<InitListExpr>(stripCopies(il->getInit(0))); // std::array<T, N> a{{...}}
    for (unsigned e = 0; e < il->getNumInits() && e < unsigned(ai.size); ++e) {
      std::vector<ir::Expr> vals = viewValues(il->getInit(e), ai.elem, env);
      for (size_t l = 0; l < leaves.size(); ++l) elems[l].push_back(vals[l]);
    }
  } else if (init && !isa<CXXConstructExpr>(init) && !isa<ImplicitValueInitExpr>(init)) {
    fail(loc, "this initializer of an array of structs with pointer members is not supported");
  }
  std::function<ir::Expr(size_t, Env &)> bindLeaf = [&](size_t l, Env &e) -> ir::Expr {
    if (l == leaves.size()) return k(e);
    QualType lt = leaves[l].type;
    const VarDecl *leaf = leafVar(vd, leaves[l].path, lt);
    leafBase_.erase(leaf);
    LocalArrayInit start;
    start.size = ir::Const::makeInt(ai.size);
    for (ir::Expr v : elems[l]) {
      if (leaves[l].pointer && v) {
        ir::Expr base = ir::rootArray(v);
        if (!base->is<ir::Var>())
          fail(loc, "members of an array of structs must point into a named array (not into a row of an array of arrays)");
        if (auto b = leafBase_.find(leaf); b != leafBase_.end() && !ir::alphaEqual(b->second, base))
          fail(loc, "the elements' member '" + leaf->getNameAsString() + "' point into different arrays (not supported)");
        leafBase_[leaf] = base;
        v = ir::viewOffset(v);
      }
      start.elems.push_back(v);
    }
    ir::TypeP et = leaves[l].pointer ? ir::Type::i64() : typeOf(lt, loc);
    return bindLocalArray(leaf, et, false, start, e, [&, l](Env &e2) { return bindLeaf(l + 1, e2); });
  };
  return wrap(pre, bindLeaf(0, env));
}

// `layers[k].w = p + k * h`, `layers[k] = Layer{...}`, `layers[k].n = h`:
// stores into the leaves' arrays. Assignments of a local's members are
// lowerAssignment's (viewLeafVar); of a whole local view struct, refused.
bool Lowering::lowerViewStore(const Expr *e, Env &env, ir::Expr &eff) {
  const Expr *lhs = nullptr, *rhs = nullptr;
  bool plain = false;
  if (const auto *b = dyn_cast<BinaryOperator>(e); b && b->isAssignmentOp())
    lhs = b->getLHS(), rhs = b->getRHS(), plain = b->getOpcode() == BO_Assign;
  else if (const auto *u = dyn_cast<UnaryOperator>(e); u && u->isIncrementDecrementOp()) lhs = u->getSubExpr();
  else if (const auto *oc = dyn_cast<CXXOperatorCallExpr>(e); oc && isTrivialStructAssign(oc))
    lhs = oc->getArg(0), rhs = oc->getArg(1), plain = true;
  else return false;
  const VarDecl *root;
  const Expr *index;
  std::vector<int> shapePath;
  if (!viewPlaceShape(lhs, root, index, shapePath)) return false;
  SourceLocation loc = lhs->getExprLoc();
  QualType lt = lhs->getType().getNonReferenceType();
  if (!index && !placeAlias_.count(root)) { // (an element of an object table by another name: object_tables.cpp)
    if (!isViewStruct(lt)) return false; // a member of a local: lowerAssignment
    fail(loc, "assigning a whole struct with pointer members is not supported (assign its members, or declare a new local)");
  }
  const bool number = !isViewStruct(lt) && !lt->isPointerType();
  if (!plain && !number) fail(loc, "only '=' is supported on members of an array of structs with pointer members");
  ViewPlace pl;
  viewPlace(lhs, env, pl);
  root = pl.root; // (the table, for a name of one of its elements)
  std::vector<ViewLeaf> leaves = viewLeaves(lt);
  std::vector<ir::Expr> vals;
  if (!plain) vals.push_back(updatedMember(e, readLeaf(pl, pl.path, env, loc), env)); // `m.count += 1`, `++m.count`
  else if (isViewStruct(lt)) vals = viewValues(rhs, lt, env);
  else if (lt->isPointerType()) vals.push_back(isNull(rhs, ctx_) ? nullptr : lowerArrayRef(rhs, env));
  else vals.push_back(convert(lowerExpr(rhs, env), typeOf(lt.getUnqualifiedType(), loc)));
  std::string in = names_.fresh("index");
  ir::Expr idx = ir::Var::make(in, ir::Type::i64());
  std::vector<ir::Expr> stores;
  for (size_t l = 0; l < leaves.size(); ++l) {
    std::vector<int> path = pl.path;
    path.insert(path.end(), leaves[l].path.begin(), leaves[l].path.end());
    QualType t = viewArrays_.at(root);
    for (int f : path) t = std::next(t.getCanonicalType()->getAsRecordDecl()->field_begin(), f)->getType();
    const VarDecl *leaf = leafVar(root, path, t);
    ir::Expr v = vals[l];
    if (leaves[l].pointer) {
      if (!v) fail(loc, "null pointers are not supported (a pointer must point into an array)");
      ir::Expr base = ir::rootArray(v);
      if (auto b = leafBase_.find(leaf); b != leafBase_.end() && !ir::alphaEqual(b->second, base))
        fail(loc, "member '" + leaf->getNameAsString() +
                      "' of the elements is made to point into another array than before (not supported: every "
                      "element's member points into one array)");
      if (!base->is<ir::Var>()) // a row `A[k]` would differ between elements
        fail(loc, "members of an array of structs must point into a named array (not into a row of an array of arrays)");
      leafBase_[leaf] = base;
      v = ir::viewOffset(v);
    }
    stores.push_back(store(env.at(leaf), idx, v, ir::Store::Mode::Set, loc));
  }
  ir::Expr chain = stores.back();
  for (size_t s = stores.size() - 1; s-- > 0;) chain = ir::Let::make(names_.fresh("_"), stores[s], chain);
  eff = ir::Let::make(in, pl.index, chain);
  return true;
}

// The new value of a number member `old` that the compound assignment or
// increment `e` gives it.
ir::Expr Lowering::updatedMember(const Expr *e, const ir::Expr &old, Env &env) {
  if (const auto *u = dyn_cast<UnaryOperator>(e))
    return ir::Prim::make(u->isIncrementOp() ? ir::Op::Add : ir::Op::Sub, {old, one(old->type)});
  const auto *ca = cast<CompoundAssignOperator>(e);
  ir::Op op;
  switch (ca->getOpcode()) {
  case BO_AddAssign: op = ir::Op::Add; break;
  case BO_SubAssign: op = ir::Op::Sub; break;
  case BO_MulAssign: op = ir::Op::Mul; break;
  case BO_DivAssign: op = ir::Op::Div; break;
  default: fail(ca->getOperatorLoc(), "this compound assignment of a member of an element is not supported");
  }
  return ir::Prim::make(op, {old, convert(lowerExpr(ca->getRHS(), env), old->type)});
}

// The variable of the member `lhs` of a local view struct (the leaf it is
// in; `path` gets the rest, for a member of a plain struct member).
const VarDecl *Lowering::viewLeafVar(const Expr *lhs, std::vector<int> &path, bool diagnose) {
  const VarDecl *root;
  const Expr *index;
  std::vector<int> full;
  if (!viewPlaceShape(lhs, root, index, full) || index || placeAlias_.count(root)) return nullptr;
  QualType t = viewRootType(root);
  size_t k = 0;
  while (k < full.size() && isViewStruct(t)) t = std::next(t.getCanonicalType()->getAsRecordDecl()->field_begin(), full[k++])->getType();
  if (isViewStruct(t)) {
    if (diagnose) fail(lhs->getExprLoc(), "assigning a whole struct with pointer members is not supported (assign its members)");
    return nullptr;
  }
  if (vectorMember(t)) {
    if (diagnose) fail(lhs->getExprLoc(), "assigning a std::vector member of a struct is not supported yet (write its elements)");
    return nullptr;
  }
  const std::vector<int> at(full.begin(), full.begin() + long(k));
  const VarDecl *leaf = leafVar(root, at, t);
  if (const VarDecl *owner = ownerLeaf(root, at, t); owner != leaf) { // a member of its owner (written_members.cpp)
    path.insert(path.end(), full.begin() + long(k), full.end());
    return owner;
  }
  if (viewReadOnly_.count(root)) {
    if (diagnose && viewThis_.count(root)) // (vector_members.cpp; an object with no owner: written_members.cpp)
      fail(lhs->getExprLoc(), "a method assigning a member of its object, a class with std::vector members, is not "
                              "supported (only the elements of its vectors may be written; build a new object instead)");
    if (diagnose)
      fail(lhs->getExprLoc(), "assigning a member of '" + root->getNameAsString() +
                                  "', a reference to a struct with pointer members, is not supported (write through its pointers, or use a local copy)");
    return nullptr;
  }
  path.insert(path.end(), full.begin() + long(k), full.end());
  return leaf;
}

// Helpers lowered into their callers: those with non-const reference
// parameters (references.cpp), with view struct parameters (or pointers to
// one object of a split class), taking or returning objects of mirrored
// classes (class_layout.cpp) or optionals (optionals.cpp), or returning a
// pointer, or comparing two pointers or iterators.
bool Lowering::inlinedHelper(const FunctionDecl *fd) {
  if (takesOutReference(fd) || takesCallable(fd)) return true;
  const FunctionDecl *def = fd->getDefinition();
  if (!def || !def->hasBody() || sm_.isInSystemHeader(sm_.getExpansionLoc(def->getLocation()))) return false;
  if (ArrayInfo ai; def->getReturnType()->isPointerType() && arrayInfo(def->getReturnType(), ai, SourceLocation()))
    return true;
  if (touchesMirroredClass(def)) return true; // class_layout.cpp
  if (optionalType(def->getReturnType())) return true; // (no optional crosses a generated signature: optionals.cpp)
  if (comparesPointers(def)) return true; // a range's two ends (pointers.cpp)
  if (resizesVectorParam(def)) return true; // the caller's array resized (resized_members.cpp)
  return std::any_of(def->param_begin(), def->param_end(), [&](const ParmVarDecl *p) {
    // `Mat& m` and `Mat* m` are bound to the caller's object's members
    return isViewStruct(p->getType()) || viewPointerParam(p) || optionalType(p->getType()) || objectTableParam(p);
  });
}

// The arrays a caller can see (where a pointer an inlined helper returns
// may point).
std::set<std::string> Lowering::visibleArrays(const Env &env) {
  std::set<std::string> out;
  for (const auto &[vd, e] : env)
    if (e->type->isArray()) out.insert(arrayName(e));
  for (const auto *bases : {&ptrBase_, &leafBase_})
    for (const auto &[vd, b] : *bases)
      if (env.count(vd)) out.insert(arrayName(b));
  return out;
}

// `return a + i * n;` in an inlined helper returning a pointer: the offset
// into the array the first return chose.
ir::Expr Lowering::lowerPointerReturn(const Expr *value, Env &env, Binds &pre) {
  SourceLocation loc = value->getExprLoc();
  if (isNull(value, ctx_)) fail(loc, "returning a null pointer is not supported (a pointer must point into an array)");
  ir::Expr view;
  {
    EffectScope scope(*this, &pre);
    view = lowerArrayRef(value, env);
  }
  ir::Expr base = ir::rootArray(view);
  std::string fname = inlining_.empty() ? std::string("the helper") : inlining_.back()->getNameAsString();
  if (!inline_->callerArrays.count(arrayName(view)))
    fail(loc, "'" + fname + "' returns a pointer into its own local array, which no longer exists after the call (a dangling pointer)");
  if (inline_->base && !ir::alphaEqual(inline_->base, base))
    fail(loc, "'" + fname + "' returns pointers into different arrays on different paths (not supported)");
  inline_->base = base;
  return ir::viewOffset(view);
}

} // namespace unfad::frontend
