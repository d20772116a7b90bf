// Classes whose objects the generated code cannot build or read as written:
// non-public data members, a constructor that computes (`Circle(double r)
// : r2_(r * r) {}`), a default constructor that sets non-zero values, a
// base class (see "bases" below).
//
// Inside the generated code such an object is only its fields, as every
// object is (classes.cpp): its constructors and methods are lowered into
// their callers, so nothing calls them. Its IR struct is a "mirror"
// (ir::Type::mirror), a plain aggregate with the class's data members under
// the same names, which the generated code defines once (`struct
// Spring_fields { double k_; double rest_; };`, printer/mirrors.cpp) and
// builds and zeroes with braces. The user's class is left as it is.
//
// Where such an object would cross into or out of generated code it would
// have to be read or built as written: so helpers taking or returning one
// are lowered into their callers (inlinedHelper), and a parameter of the
// marked function of such a type is read member by member where its data
// members are public (`p.m` of a derived `p`, printer CVal::userObject),
// and refused otherwise (checkBoundaryType).
#include "lowering.h"

#include <clang/AST/DeclCXX.h>
#include <clang/AST/DeclTemplate.h>

namespace unfad::frontend {

using namespace clang;

bool classBuiltAsWritten(const CXXRecordDecl *crd, ASTContext &ctx); // classes.cpp

namespace {

// `Vec<3, double>` -> `Vec_3_double`.
std::string identifierOf(const std::string &spelled) {
  std::string out;
  for (char c : spelled) {
    bool ident = std::isalnum(static_cast<unsigned char>(c)) || c == '_';
    if (ident) out += c;
    else if (!out.empty() && out.back() != '_') out += '_';
  }
  while (!out.empty() && out.back() == '_') out.pop_back();
  return out;
}

} // namespace

// `Spring_fields`: the class's name (with its template arguments), or its
// qualified name when two classes of one name are mirrored.
std::string Lowering::mirrorName(const RecordDecl *rd) {
  std::string full = qualTypeStr(ctx_.getRecordType(rd));
  std::string name = rd->getNameAsString();
  if (isa<ClassTemplateSpecializationDecl>(rd) && full.find('<') != std::string::npos)
    name += full.substr(full.find('<'));
  name = identifierOf(name) + "_fields";
  auto [it, fresh] = mirrorNames_.emplace(name, rd);
  if (!fresh && it->second != rd) name = identifierOf(full) + "_fields";
  mirrorNames_.emplace(name, rd);
  return name;
}

// Whether values of `t` (or the elements of an array `t`) are objects of a
// mirrored class; classes unfad refuses are not (their use is diagnosed).
bool Lowering::mirroredClass(QualType t, int depth) {
  if (depth > 8) return false;
  t = t.getNonReferenceType();
  for (ArrayInfo ai; arrayInfo(t, ai, SourceLocation());) t = ai.elem;
  const CXXRecordDecl *rd = t->getAsCXXRecordDecl();
  if (!rd || !rd->hasDefinition() || rd->isLambda() || rd->isUnion() ||
      sm_.isInSystemHeader(sm_.getExpansionLoc(rd->getLocation())))
    return false;
  if (rd->isPolymorphic() || !rd->isTriviallyCopyable() || declaredPassiveClass(rd)) return false;
  if (rd->getNumBases()) return true; // (bases)
  if (!rd->isAggregate() && !classBuiltAsWritten(rd, ctx_)) return true;
  for (const FieldDecl *f : rd->fields())
    if (mirroredClass(f->getType(), depth + 1)) return true;
  return false;
}

// A helper taking or returning objects of a mirrored class: lowered into
// its callers (no generated signature could spell them).
bool Lowering::touchesMirroredClass(const FunctionDecl *fd) {
  if (mirroredClass(fd->getReturnType())) return true;
  return std::any_of(fd->param_begin(), fd->param_end(),
                     [&](const ParmVarDecl *p) { return mirroredClass(p->getType()); });
}

namespace {

bool holdsMirror(const ir::TypeP &t) {
  if (!t) return false;
  if (t->isStruct() && t->mirror) return true;
  return std::any_of(t->elems.begin(), t->elems.end(), holdsMirror);
}

} // namespace

// A parameter of a generated signature (the marked function's, a
// recursive helper's) whose type the generated code mirrors: it would have
// to read the caller's object as written.
// A marked function's parameter is the user's object: the generated code
// reads and writes it member by member, so every data member, the bases'
// included, must be public and none hidden.
void Lowering::checkBoundaryType(const ir::TypeP &t, const ParmVarDecl *pd, bool marked) {
  if (!holdsMirror(t)) return;
  std::string why = "it is a parameter of a helper the generated code calls";
  if (marked) {
    QualType c = pd->getType().getNonReferenceType();
    if (c->isPointerType()) c = c->getPointeeType();
    for (ArrayInfo ai; arrayInfo(c, ai, SourceLocation());) c = ai.elem;
    const auto *rd = c->getAsCXXRecordDecl();
    why = rd ? unreadableAsWritten(rd) : "its objects cannot be read as written";
    if (why.empty()) return;
  }
  fail(pd->getLocation(), "parameter '" + pd->getNameAsString() + "' of type '" + typeStr(pd->getType()) +
                              "' is not supported: " + why + "; such objects are supported inside the function and its "
                              "helpers, so pass the values they are built from");
}

// Why the generated code cannot read and write an object of `rd` member by
// member from outside the class ("" when it can).
std::string Lowering::unreadableAsWritten(const CXXRecordDecl *rd, int depth) {
  if (depth > 8) return "its class nests too deeply";
  if (std::string why = unreachableBaseMember(rd); !why.empty()) return why;
  for (const CXXRecordDecl *c = rd;;) {
    for (const FieldDecl *f : c->fields()) {
      if (f->getAccess() != AS_public)
        return "its data member '" + f->getNameAsString() + "' of '" + c->getNameAsString() + "' is not public";
      QualType ft = f->getType();
      for (ArrayInfo ai; arrayInfo(ft, ai, SourceLocation());) ft = ai.elem;
      if (const auto *member = ft->getAsCXXRecordDecl(); member && mirroredClass(ft))
        if (std::string why = unreadableAsWritten(member, depth + 1); !why.empty()) return why;
    }
    if (c->getNumBases() != 1) return "";
    if (c->bases_begin()->getAccessSpecifier() != AS_public)
      return "'" + c->getNameAsString() + "' derives from its base class privately";
    c = c->bases_begin()->getType()->getAsCXXRecordDecl();
    if (!c) return "";
  }
}

} // namespace unfad::frontend

// ------------------------------------------------------------ bases --
// Single inheritance without virtual functions: a derived class's object
// holds its base object as its first field (named `base`, or `base_` when a
// data member is named `base`), then its own data members. A class with a
// base is mirrored (C++ has no name for the base subobject), so
// `struct Particle_fields { Body base; double v; };`. A conversion to the
// base (`p.mass()`, a `Particle` passed as `const Body&`, `m` of the base in
// a method of the derived class) is the path to that field.

namespace unfad::frontend {

// (Lowering::fieldIndex, the IR field of a data member: member_arrays.cpp.)

std::string baseFieldName(const CXXRecordDecl *crd) {
  for (const FieldDecl *f : crd->fields())
    if (f->getName() == "base") return "base_";
  return "base";
}

bool isBaseCast(const CastExpr *c) {
  return c->getCastKind() == CK_DerivedToBase || c->getCastKind() == CK_UncheckedDerivedToBase;
}

// `e` without conversions to a base class; `up` counts the steps.
const Expr *stripBaseCasts(const Expr *e, int &up) {
  up = 0;
  while (true) {
    e = stripNoOps(e);
    const auto *c = dyn_cast<ImplicitCastExpr>(e);
    if (!c || !isBaseCast(c)) return e;
    up += int(c->path_size());
    e = c->getSubExpr();
  }
}

// The current object's variable when `e` is `this` (`*this` with `deref`)
// converted to a base `up` steps up.
const VarDecl *Lowering::thisDeclUp(const Expr *e, int &up, bool deref) {
  if (!e) return nullptr;
  e = stripBaseCasts(e, up);
  if (!deref) return thisDecl(e);
  const auto *u = dyn_cast<UnaryOperator>(e);
  if (!u || u->getOpcode() != UO_Deref) return thisDecl(e, true);
  int inner = 0;
  const VarDecl *v = thisDecl(stripBaseCasts(u->getSubExpr(), inner));
  up += inner;
  return v;
}

ir::Expr Lowering::projUp(ir::Expr v, int up) {
  for (int k = 0; k < up; ++k) v = ir::Proj::make(v, 0);
  return v;
}

// `(const Body&)p` of a value: its base field(s).
ir::Expr Lowering::lowerBaseCast(const CastExpr *ce, Env &env) {
  if (ce->getType()->isPointerType() || ce->getSubExpr()->getType()->isPointerType())
    fail(ce->getExprLoc(), "conversions of pointers to a base class are not supported");
  typeOf(ce->getSubExpr()->getType().getNonReferenceType().getUnqualifiedType(), ce->getExprLoc()); // a class unfad supports
  return projUp(lowerExpr(ce->getSubExpr(), env), int(ce->path_size()));
}

// Refused bases: several, virtual ones, bases without data members.
void Lowering::checkBases(const CXXRecordDecl *crd, const std::string &spelled, SourceLocation loc) {
  if (crd->getNumBases() > 1) fail(loc, "classes with several base classes are not supported (" + spelled + ")");
  const CXXBaseSpecifier &b = *crd->bases_begin();
  if (b.isVirtual()) fail(loc, "virtual base classes are not supported (" + spelled + ")");
  const CXXRecordDecl *base = b.getType()->getAsCXXRecordDecl();
  if (!base || !base->hasDefinition()) fail(loc, "the base class of " + spelled + " is not supported");
  bool data = base->getNumBases() > 0;
  for (const FieldDecl *f : base->fields()) (void)f, data = true;
  if (!data) fail(loc, "base classes without data members are not supported yet (" + spelled + ")");
}

} // namespace unfad::frontend
