// Constant tables: arrays of coefficients the program reads and never writes,
// as numerical code keeps them,
//
//   static constexpr double kWeights[] = {0.2369, 0.4786, 0.5688, 0.4786, 0.2369};
//   namespace rk { const double b[4] = {1.0 / 6, 1.0 / 3, 1.0 / 3, 1.0 / 6}; }
//   struct Gauss { static constexpr std::array<double, 3> w{5.0 / 9, 8.0 / 9, 5.0 / 9}; };
//
// A table declared at namespace scope or as a public static data member is
// read by its name in the generated code (an Opaque of array type: no
// derivative, no copy, and `kWeights[k]` reads as the user wrote it). Being
// const, it holds the same values whenever f or f_grad runs, however it was
// initialised (`{std::sqrt(2.0), ...}` runs before main); so does a const
// number initialised at run time (`const double kSqrt2 = std::sqrt(2.0);`,
// whose value the compiler does not know), read by name as well. A
// `static const` table local to a function is not nameable from the
// generated function: statements.cpp lowers it as a local array (its
// initializer is constant, so every call sees the same values). Tables of
// rows (a Butcher tableau `a[4][4]`) are read as `a[i][j]`. A const
// std::vector is refused: the printer would need its run-time length, which
// an Opaque does not carry.
#include "lowering.h"

#include <clang/AST/DeclCXX.h>

namespace unfad::frontend {

using namespace clang;

bool Lowering::isConstantTable(const VarDecl *vd) {
  if (vd->hasLocalStorage() || vd->isStaticLocal()) return false;
  QualType t = vd->getType();
  ArrayInfo ai;
  return (t.isConstQualified() || vd->isConstexpr()) && arrayInfo(t, ai, SourceLocation()) &&
         (ai.kind == ArrayInfo::CArray || ai.kind == ArrayInfo::StdArray);
}

// A const variable of the program read by its name in the generated code.
ir::Expr Lowering::namedConstant(const VarDecl *vd, SourceLocation loc) {
  bool constant = vd->getType().isConstQualified() || vd->isConstexpr();
  std::string quoted = std::string(constant ? "constant" : "global") + " '" + vd->getNameAsString() + "'";
  const auto *owner = dyn_cast<CXXRecordDecl>(vd->getDeclContext());
  const auto *method = dyn_cast_or_null<CXXMethodDecl>(currentRoot_);
  if ((vd->getAccess() == AS_private || vd->getAccess() == AS_protected) && !(method && method->getParent() == owner))
    fail(loc, quoted + " is a non-public static member (the generated function reads it by its name "
              "from outside the class)");
  if (currentRoot_ && sm_.isBeforeInTranslationUnit(sm_.getExpansionLoc(currentRoot_->getBeginLoc()),
                                                     sm_.getExpansionLoc(vd->getLocation())))
    fail(loc, quoted + " is declared after the marked function; declare it before (the generated "
              "function, written after the marked one, reads it by its name)");
  ir::TypeP t;
  if (ArrayInfo ai; arrayInfo(vd->getType(), ai, SourceLocation())) {
    if (ai.kind == ArrayInfo::Vector) // (the generated code would need its run-time length too)
      fail(loc, quoted + " is a std::vector, which is not supported yet as a table read by name (a "
                "C array or a std::array is: 'constexpr std::array<double, N> " + vd->getNameAsString() + "{...}')");
    t = arrayType(ai, loc);
  } else {
    t = typeOf(vd->getType().getUnqualifiedType(), loc);
  }
  if (!t->isArray() && !t->isScalar())
    fail(loc, quoted + " of type '" + typeStr(vd->getType()) + "' has no constant initializer");
  std::string s;
  llvm::raw_string_ostream os(s);
  vd->printQualifiedName(os, policy_);
  const DeclContext *dc = vd->getDeclContext()->getRedeclContext();
  return ir::Opaque::make(dc->isTranslationUnit() ? os.str() : "::" + os.str(), {}, t, /*read=*/true);
}

// Whether `init` computes the same value at every call: it reads no
// variable but constants and calls only the standard library's functions
// (`std::sqrt(2.0)`, `std::acos(-1.0)`), so a `static const` local
// initialised by it may be computed again at each call.
bool Lowering::fixedInitializer(const Expr *init) {
  if (!init) return true;
  if (const auto *d = dyn_cast<DeclRefExpr>(init)) {
    const auto *vd = dyn_cast<VarDecl>(d->getDecl());
    if (vd && (vd->hasLocalStorage() || !(vd->getType().isConstQualified() || vd->isConstexpr()))) return false;
  }
  if (const auto *c = dyn_cast<CallExpr>(init)) {
    const FunctionDecl *fd = c->getDirectCallee();
    if (!fd || !(fd->isConstexpr() || sm_.isInSystemHeader(sm_.getExpansionLoc(fd->getLocation())))) return false;
  }
  if (isa<CXXThisExpr>(init) || isa<LambdaExpr>(init)) return false;
  for (const Stmt *child : init->children())
    if (const auto *e = dyn_cast_or_null<Expr>(child); child && (!e || !fixedInitializer(e))) return false;
  return true;
}

} // namespace unfad::frontend
