// Struct parameters of the marked function that have no IR type: structs of
// pointers into arrays (`struct LayerView { const double* w; const double*
// b; int n; }`) and aggregates with std::vector members (`struct Model {
// std::vector<double> w; double bias; }`), passed by (const) reference or,
// for structs of pointers, by value.
//
// Such a parameter is split into its members (its leaves, view_structs.cpp),
// each an IR parameter of its own: an array for a pointer or std::vector
// member, a scalar or a struct for the others. Inside the function the
// parameter is then what a local of that type is (its members are leaf
// locals). The printer declares the C++ parameter once and reads the members
// through it (`m.w`, CxxType::parent); the adjoint is a pointer to an object
// of the same type, `Model* d_m`, whose floating-point members receive the
// derivatives (`d_m->bias += ...`, `d_m->w[i] += ...`: the caller sizes its
// vectors like the parameter's) and whose pointer members point at the
// caller's adjoint arrays (`LayerView d_l{d_w, d_b, n}`; the generated code
// writes through them, casting their `const` away).
#include "lowering.h"

#include "unfad/frontend/cxx_types.h"

namespace unfad::frontend {

using namespace clang;

namespace {

// `w`, `inner.w`: the member `path` leads to in `t`.
std::string memberPath(QualType t, const std::vector<int> &path) {
  std::string out;
  for (int k : path) {
    const FieldDecl *f = *std::next(t.getCanonicalType()->getAsRecordDecl()->field_begin(), k);
    out += (out.empty() ? "" : ".") + f->getNameAsString();
    t = f->getType();
  }
  return out;
}

std::string underscored(std::string s) {
  for (char &c : s)
    if (c == '.') c = '_';
  return s;
}

} // namespace

void Lowering::lowerSplitParam(const ParmVarDecl *pd, bool active, Env &env, ir::Function &f) {
  SourceLocation loc = pd->getLocation();
  QualType t = pd->getType().getNonReferenceType();
  if (pd->getName().empty()) fail(loc, "an unnamed parameter of a struct type with pointer or std::vector members");
  checkVectorClassParam(pd); // (vector_members.cpp)
  if (hasVectorMember(t) && !t.isConstQualified())
    fail(loc, "a parameter of type '" + typeStr(pd->getType()) + "' (a struct with std::vector members) that is not "
              "'const' is not supported yet (pass 'const " + typeStr(t.getUnqualifiedType()) + "&')");
  const bool readOnly = pd->getType()->isReferenceType() && !t.isConstQualified();
  std::vector<ir::Param> leaves = splitLeaves(pd, t, pd->getNameAsString(), active, readOnly, env, loc);
  f.params.insert(f.params.end(), leaves.begin(), leaves.end());
}

// The leaves of `root` (a struct of type `t` named `name` in C++) as IR
// parameters, bound in `env`; `readOnly`: the leaves' arrays may be written,
// not its other members.
std::vector<ir::Param> Lowering::splitLeaves(const VarDecl *root, QualType t, const std::string &name, bool active,
                                             bool readOnly, Env &env, SourceLocation loc) {
  viewLocals_.insert(root);
  if (readOnly) viewReadOnly_.insert(root);
  else viewReadOnly_.erase(root);
  std::vector<ir::Param> out;
  for (const ViewLeaf &l : viewLeaves(t)) {
    const VarDecl *leaf = leafVar(root, l.path, l.type);
    std::string member = memberPath(t, l.path);
    ir::Param p;
    p.name = names_.fresh(name + "_" + underscored(member));
    ir::Expr v;
    if (l.pointer || l.vector) {
      ArrayInfo ai;
      arrayInfo(l.type, ai, loc);
      p.type = arrayType(ai, loc);
      v = ir::Var::make(p.name, p.type);
      if (l.pointer) ptrBase_[leaf] = v, v = ir::Const::makeInt(0); // a pointer local at offset 0
      arrNames_[p.name] = name + "." + member;
    } else {
      p.type = typeOf(l.type.getUnqualifiedType(), loc);
      v = ir::Var::make(p.name, p.type);
    }
    env[leaf] = v;
    p.active = active && ir::isActive(p.type);
    if (p.type->isArray() && !p.active) passiveArrays_.insert(p.name);
    out.push_back(p);
  }
  return out;
}

// One description per IR parameter lowerSplitParam made, in its order.
std::vector<ir::CxxType> Lowering::describeSplitParam(const ParmVarDecl *pd) {
  return describeLeaves(pd->getType(), pd->getNameAsString());
}

// One description per leaf of a struct declared `declared` (its adjoint a
// pointer to one), read through `parent`.
std::vector<ir::CxxType> Lowering::describeLeaves(QualType declared, const std::string &parent) {
  QualType t = declared.getNonReferenceType();
  ir::CxxType whole = describeCxxType(declared, ctx_, policy_, false);
  std::vector<ir::CxxType> out;
  for (const ViewLeaf &l : viewLeaves(t)) {
    ir::CxxType c = describeCxxType(l.type, ctx_, policy_, false);
    c.parent = parent;
    c.member = memberPath(t, l.path);
    c.parentDecl[0] = whole.declBefore, c.parentDecl[1] = whole.declAfter;
    c.parentAdjoint[0] = whole.adjointBefore, c.parentAdjoint[1] = whole.adjointAfter;
    out.push_back(c);
  }
  return out;
}

} // namespace unfad::frontend
