// The number members of a split object (a class owning std::vector members,
// an aggregate with vector members: vector_members.cpp, view_structs.cpp)
// written where the object is reached through a name of it that can write:
//
//   class Grid {
//   public:
//     void set_spacing(double h) { h_ = h; ++version_; }
//     void reshape(int r, int c) { rows_ = r; cols_ = c; }   // (data_ keeps its size)
//     ...
//   };
//   void configure(Grid* g, double h) { g->set_spacing(h); }
//   Grid g(n, n); configure(&g, h); ... g(i, j) * g.spacing() ...
//
// A split object's number members are locals of the function that owns the
// object (leaves: `g_h_`). A name of the object that can write it (`this` of
// a non-const method, a helper's `Grid&` or `Grid*` parameter, a local
// `Grid& r = *p;`) names those locals: each of its number leaves is bound as
// a reference to the owner's leaf (refs_, references.cpp), so reads are the
// owner's current value, a write is a new value of the owner's local, and
// the inlined call hands the new values back (its roots) like a helper's
// `double&` parameter. Loops and branches carry the owner's leaves when a
// call in them may write them (collectAssigned: a non-const method of the
// object, a helper given it by non-const reference or pointer).
// A name that cannot be traced to an owner (an element of an array of
// objects) keeps the refusal at the assignment.
#include "lowering.h"

#include <algorithm>
#include <functional>

namespace unfad::frontend {

using namespace clang;

namespace {

// `&obj` -> `obj`
const Expr *addressed(const Expr *e) {
  const Expr *x = e->IgnoreParenImpCasts();
  if (const auto *u = dyn_cast<UnaryOperator>(x); u && u->getOpcode() == UO_AddrOf) return u->getSubExpr();
  return x;
}

} // namespace

// The owner's local of the number member `path` (of type `type`) of the
// object `root` names: through a reference local's initializer (bound or,
// when collectAssigned looks ahead into a loop body, not yet), through what
// a parameter or `this` was bound to (refs_), else `root`'s own leaf.
const VarDecl *Lowering::ownerLeaf(const VarDecl *root, const std::vector<int> &path, QualType type) {
  if (root->getType()->isReferenceType() && !isa<ParmVarDecl>(root) && root->getInit()) {
    const VarDecl *r;
    const Expr *index;
    std::vector<int> at;
    if (viewPlaceShape(addressed(root->getInit()), r, index, at) && !index && r != root) {
      at.insert(at.end(), path.begin(), path.end());
      return ownerLeaf(r, at, type);
    }
  }
  const VarDecl *leaf = leafVar(root, path, type);
  const RefTarget *t = refOf(leaf);
  return t && t->var && !t->choice && t->path.empty() ? t->var : leaf;
}

// The owner's locals of the number members of the object `obj` names
// (`g`, `*p`, `&g`, `this`), each with its leaf path in the object; empty
// when `obj` is no split object reached without an index.
std::vector<Lowering::OwnedLeaf> Lowering::ownedNumberLeaves(const Expr *obj, QualType t) {
  std::vector<OwnedLeaf> out;
  const VarDecl *root;
  const Expr *index;
  std::vector<int> at;
  while (const Expr *inner = chainedObject(obj)) obj = inner; // (`g.scale(s).shift(d)`: g)
  if (!obj || !viewPlaceShape(addressed(obj), root, index, at) || index || placeAlias_.count(root)) return out;
  for (const ViewLeaf &l : viewLeaves(t)) {
    if (l.pointer || l.vector || !l.views.isNull()) continue;
    std::vector<int> path = at;
    path.insert(path.end(), l.path.begin(), l.path.end());
    out.push_back({l.path, l.type, ownerLeaf(root, path, l.type)});
  }
  return out;
}

// `root` (a reference, pointer or `this` naming the object `from`, of type
// `t`): its number leaves refer to the owner's locals, so that it reads
// their current values whoever writes them. For a name that can write
// (`writes`), the owner's locals join `roots` (the variables an inlined call
// hands back), when given.
void Lowering::aliasNumberLeaves(Env &env, const VarDecl *root, QualType t, const Expr *from, bool writes,
                                 std::vector<const VarDecl *> *roots) {
  aliasElementPlace(root, from, env); // (an element of an object table: object_tables.cpp)
  for (const auto &[path, type, owner] : ownedNumberLeaves(from, t)) {
    const VarDecl *leaf = leafVar(root, path, type);
    if (leaf == owner) continue;
    RefTarget target;
    target.var = target.root = owner;
    refs_[leaf] = target;
    if (writes && roots && std::find(roots->begin(), roots->end(), owner) == roots->end()) roots->push_back(owner);
  }
}

// `g.scale(s)` where `scale` returns `*this` (a `Grid&`): `g` (else null).
const Expr *Lowering::chainedObject(const Expr *e) {
  const auto *mc = e ? dyn_cast<CXXMemberCallExpr>(e->IgnoreParenImpCasts()) : nullptr;
  const CXXMethodDecl *md = mc ? mc->getMethodDecl() : nullptr;
  if (!md || md->isStatic() || !md->getReturnType()->isLValueReferenceType()) return nullptr;
  const auto *rd = md->getReturnType().getNonReferenceType()->getAsCXXRecordDecl();
  return rd && rd->getCanonicalDecl() == md->getParent()->getCanonicalDecl() ? mc->getImplicitObjectArgument() : nullptr;
}

// Whether `fd` may assign a number member of an object of a split class:
// in its body, or in the non-const methods and helpers taking such an
// object by non-const reference or pointer that it calls. A number member
// used other than read (its value taken: an lvalue-to-rvalue conversion)
// may be written: assigned, incremented, given to `std::swap` or to a
// reference, its address taken. (An accessor `double& operator()(i, j)`
// writes none: its elements are memory.)
bool Lowering::writesNumberMembers(const FunctionDecl *fd) {
  const FunctionDecl *def = fd ? fd->getDefinition() : nullptr;
  if (!def || !def->hasBody()) return false;
  if (auto it = writesNumbers_.find(def); it != writesNumbers_.end()) return it->second;
  writesNumbers_[def] = false; // (recursion)
  std::function<bool(const Stmt *, bool)> walk = [&](const Stmt *s, bool read) -> bool {
    if (!s) return false;
    if (const auto *m = dyn_cast<MemberExpr>(s); m && !read)
      if (const auto *f = dyn_cast<FieldDecl>(m->getMemberDecl());
          f && f->getParent() && !vectorMember(f->getType()) && !f->getType()->isPointerType() &&
          isViewStruct(ctx_.getRecordType(f->getParent())))
        return true; // (a plain struct member read by its fields counts too: its base is an lvalue)
    if (const auto *c = dyn_cast<CallExpr>(s); c && splitObjectsWritten(c).size()) return true;
    const auto *cast = dyn_cast<ImplicitCastExpr>(s);
    bool readsKid = (cast && cast->getCastKind() == CK_LValueToRValue) || (read && isa<ParenExpr>(s));
    for (const Stmt *k : s->children())
      if (walk(k, readsKid)) return true;
    return false;
  };
  bool w = walk(def->getBody(), false);
  writesNumbers_[def] = w;
  return w;
}

// The objects of split classes a call gives a callee that may assign their
// number members: the object of a non-const method, the arguments of a
// helper's non-const reference or pointer parameters.
std::vector<std::pair<const Expr *, QualType>> Lowering::splitObjectsWritten(const CallExpr *c) {
  std::vector<std::pair<const Expr *, QualType>> out;
  const auto *fd = c->getDirectCallee();
  if (!fd || !writesNumberMembers(fd)) return out;
  const auto *md = dyn_cast<CXXMethodDecl>(fd);
  if (md && !md->isStatic() && !md->isConst()) {
    const Expr *obj = nullptr;
    if (const auto *mc = dyn_cast<CXXMemberCallExpr>(c)) obj = mc->getImplicitObjectArgument();
    else if (isa<CXXOperatorCallExpr>(c) && c->getNumArgs() >= 1) obj = c->getArg(0);
    QualType t = ctx_.getRecordType(md->getParent());
    if (obj && isViewStruct(t)) out.push_back({obj, t});
  }
  const FunctionDecl *def = fd->getDefinition();
  unsigned skip = md && isa<CXXOperatorCallExpr>(c) ? 1 : 0; // (a member operator's object is its first argument)
  for (unsigned k = 0; k + skip < c->getNumArgs() && k < def->getNumParams(); ++k) {
    QualType pt = def->getParamDecl(k)->getType();
    if (!(pt->isReferenceType() || pt->isPointerType()) || pt->getPointeeType().isConstQualified()) continue;
    QualType ot = pt->getPointeeType();
    if (!ot.isNull() && ot->isRecordType() && isViewStruct(ot)) out.push_back({c->getArg(k + skip), ot});
  }
  return out;
}

// The owner's locals a call statement `s` may write through the objects it
// gives (collectAssigned).
void Lowering::writtenNumberLeaves(const Stmt *s, const Env &env, std::vector<const VarDecl *> &out) {
  const auto *c = dyn_cast<CallExpr>(s);
  if (!c) return;
  for (const auto &[obj, t] : splitObjectsWritten(c))
    for (const auto &[path, type, owner] : ownedNumberLeaves(obj, t))
      if (auto it = env.find(owner); it != env.end() && !it->second->type->isArray() &&
                                     std::find(out.begin(), out.end(), owner) == out.end())
        out.push_back(owner);
}

} // namespace unfad::frontend
