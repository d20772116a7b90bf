// Whole objects of a class owning std::vectors assigned (vector_members.cpp):
//
//   Mat c(2, 2);  c = m;      Mat tmp;  tmp = a * b;      *out = m;
//
// The class's own operator= (implicit, or `= default`) assigns member by
// member: each vector member becomes the source's (its array resized to the
// source's size, resized_members.cpp, and its elements copied), each other
// member the source's value, written to its owner's local as any member
// write is (written_members.cpp). A user-written operator= is a method like
// any other (lowered into its caller with `this` bound to the object).
#include "lowering.h"

#include <clang/AST/DeclCXX.h>

namespace unfad::frontend {

using namespace clang;

bool Lowering::lowerObjectAssign(const Expr *e, const Seq *rest, Env &env, const Tail &tail, ir::Expr &out) {
  if (const auto *c = dyn_cast<ExprWithCleanups>(e)) e = c->getSubExpr();
  const auto *oc = dyn_cast<CXXOperatorCallExpr>(e->IgnoreParens());
  if (!oc || oc->getOperator() != OO_Equal || oc->getNumArgs() != 2) return false;
  const auto *md = dyn_cast_or_null<CXXMethodDecl>(oc->getDirectCallee());
  QualType t = oc->getArg(0)->getType().getNonReferenceType().getUnqualifiedType();
  if (!md || md->isUserProvided() || !t->isRecordType() || !isViewStruct(t) || !hasVectorMember(t)) return false;
  SourceLocation loc = oc->getOperatorLoc();
  std::string spelled = "'" + typeStr(t) + "'";
  const Expr *dst = oc->getArg(0), *src = oc->getArg(1);
  std::vector<OwnedLeaf> owners = ownedNumberLeaves(dst, t);
  std::vector<ViewLeaf> leaves = viewLeaves(t);
  Binds pre;
  std::vector<ir::Expr> from, to;
  {
    EffectScope scope(*this, &pre);
    from = viewValues(src, t, env); // (first: `c = c` and `c = f(c)` read the old c)
    to = viewValues(dst, t, env);
  }
  std::vector<std::pair<const VarDecl *, ir::Expr>> written;
  for (size_t k = 0; k < leaves.size(); ++k) {
    const ViewLeaf &l = leaves[k];
    if (l.pointer || !l.views.isNull())
      fail(loc, "assigning a whole object of " + spelled + " is not supported (its member of type '" +
                    typeStr(l.type) + "' is a pointer or a vector of views)");
    if (l.vector) {
      if (!to[k]->type->elem()->isScalar()) // (see lowerMemberResize)
        fail(loc, "assigning a whole object of " + spelled + " is not supported (its member of type '" +
                      typeStr(l.type) + "' is a vector of structs)");
      if (!to[k]->is<ir::Var>()) fail(loc, "assigning a whole object of " + spelled + " here is not supported (assign a local object, "
                          "or one a helper is given by reference or pointer)");
      std::string sizeName = names_.fresh("assigned_size");
      pre.push_back({sizeName, knownLength(from[k])});
      pre.push_back({names_.fresh("_"), recordedResize(to[k], sizeName, loc, "assigning a whole object of " + spelled)});
      pre.push_back({names_.fresh("_"), copyElements(from[k], nullptr, to[k], nullptr,
                                                    ir::Var::make(sizeName, ir::Type::i64()), loc)});
      continue;
    }
    auto owner = std::find_if(owners.begin(), owners.end(), [&](const OwnedLeaf &o) { return o.path == l.path; });
    if (owner == owners.end())
      fail(loc, "assigning a whole object of " + spelled + " here is not supported (an object without a name of its "
                "own, such as an element of an array of objects)");
    written.push_back({owner->owner, from[k]});
  }
  for (auto &[leaf, value] : written) {
    std::string n = names_.fresh(leaf->getNameAsString());
    pre.push_back({n, value});
    env[leaf] = ir::Var::make(n, value->type);
  }
  out = wrap(pre, lowerSeq(rest, env, tail));
  return true;
}

} // namespace unfad::frontend
