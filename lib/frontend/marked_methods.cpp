// Marked member functions: `UNFAD_GRADIENT double loss(const double* x, int n)
// const` in a class (or defined out of line), and a functor's marked
// `operator()`.
//
// `*this` is the IR function's first parameter, named "this": the class's
// struct for a const method (an input, like a `const T&` parameter), a
// one-element array of it for a non-const one (like a `T&` parameter: an
// input, an output when the method writes its members, or both). Its
// adjoint is `T* d_this`, first among the adjoints, as `this` is the
// implicit first parameter. The gradient is a member of the same class
// (ir::memberGradientName), so it reads private members as the method does.
//
// Placement (MarkedFunction): the gradient's declaration goes into the class
// right after the method (or after its in-class declaration when the method
// is defined out of line); its definition, with the helpers' pullbacks
// (which are free functions), at namespace scope: after the method's body
// when that is out of line, else after the outermost enclosing class.
#include "lowering.h"

#include <clang/AST/DeclCXX.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/Lex/Lexer.h>

#include <algorithm>
#include <set>

namespace unfad::frontend {

using namespace clang;

const CXXMethodDecl *Lowering::markedMethod(const FunctionDecl *fd) {
  const auto *m = dyn_cast<CXXMethodDecl>(fd);
  return m && !m->isStatic() ? m : nullptr;
}

// Why unfad cannot generate a member gradient for `m` ("" when it can).
std::string Lowering::unmarkableMethod(const CXXMethodDecl *m) {
  if (isa<CXXConstructorDecl>(m) || isa<CXXDestructorDecl>(m) || isa<CXXConversionDecl>(m))
    return "constructors, destructors and conversion functions cannot be marked";
  if (m->isOverloadedOperator() && m->getOverloadedOperator() != OO_Call)
    return "operator overloads cannot be marked, except 'operator()' (mark a named method)";
  if (m->isVirtual()) return "virtual member functions cannot be marked";
  if (m->getRefQualifier() != RQ_None || m->isVolatile()) return "ref- or volatile-qualified member functions cannot be marked";
  if (std::string why = unreachableBaseMember(m->getParent()); !why.empty()) return why;
  for (const DeclContext *dc = m->getParent(); dc; dc = dc->getParent()) {
    if (dc->isFunctionOrMethod()) return "member functions of local classes cannot be marked";
    // (a class template's own methods: template_methods.cpp)
    const auto *rd = dyn_cast<CXXRecordDecl>(dc);
    if (rd && isa<ClassTemplatePartialSpecializationDecl>(rd))
      return "member functions of partial specializations of class templates cannot be marked yet";
    if (const auto *spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(rd);
        spec && spec->getSpecializationKind() == TSK_ExplicitSpecialization)
      return "member functions of explicit specializations of class templates cannot be marked yet (mark the "
             "method of the class template)";
    if (rd && rd != m->getParent() && (rd->isDependentContext() || isa<ClassTemplateSpecializationDecl>(rd)))
      return "member functions of classes nested in class templates cannot be marked yet";
    if (rd && rd == m->getParent() && rd->isDependentContext() && !rd->getDescribedClassTemplate())
      return "member functions of classes nested in class templates cannot be marked yet";
    if (const auto *rd = dyn_cast<CXXRecordDecl>(dc); rd && !rd->getIdentifier())
      return "member functions of unnamed classes cannot be marked";
  }
  return "";
}

// A derived class's gradient reaches its bases' data members as inherited
// members (`this->k`, `d_this->k`; printer CVal::userObject): why it cannot
// for `rd` ("" when it can): a private member of a base, or a member name
// that hides a base's.
std::string Lowering::unreachableBaseMember(const CXXRecordDecl *rd) {
  std::set<std::string> names;
  for (const FieldDecl *f : rd->fields()) names.insert(f->getNameAsString());
  for (const CXXRecordDecl *base = rd; base->getNumBases() == 1;) {
    base = base->bases_begin()->getType()->getAsCXXRecordDecl();
    if (!base || !base->hasDefinition()) return ""; // (diagnosed where the class is lowered)
    for (const FieldDecl *f : base->fields()) {
      std::string quoted = "'" + f->getNameAsString() + "' of base class '" + base->getNameAsString() + "'";
      if (f->getAccess() == AS_private)
        return "the gradient, a member of '" + rd->getNameAsString() + "', cannot reach the private data member " +
               quoted + " (make it protected to mark this method)";
      if (!names.insert(f->getNameAsString()).second)
        return "a data member of '" + rd->getNameAsString() + "' or a base between hides the data member " + quoted;
    }
  }
  return "";
}

// Whether the marked method `m`'s object is split into its members: a
// class with std::vector members (vector_members.cpp).
bool Lowering::splitThis(const CXXMethodDecl *m) {
  QualType t = ctx_.getRecordType(m->getParent());
  return isViewStruct(t) && hasVectorMember(t);
}

// `*this` as the first parameter of the marked method `m` (see the file
// comment); `wrt` may name it `this`.
void Lowering::addThisParam(const CXXMethodDecl *m, bool hasWrt, const std::vector<std::string> &wrt, Env &env,
                            ir::Function &f) {
  const CXXRecordDecl *rd = m->getParent();
  if (splitThis(m)) { // `*this` split into its members, as a `const T&` parameter (struct_params.cpp)
    QualType t = ctx_.getRecordType(rd);
    refuseMutableMembers(rd, "'" + typeStr(t) + "'", m->getLocation());
    const VarDecl *self = thisVar(m);
    bool active = !hasWrt || std::find(wrt.begin(), wrt.end(), "this") != wrt.end();
    // (a non-const method may write its vectors' elements, not its other members)
    std::vector<ir::Param> leaves =
        splitLeaves(self, t, ir::CxxType::kThisParent, active, /*readOnly=*/!m->isConst(), env, m->getLocation());
    if (hasWrt && active && std::none_of(leaves.begin(), leaves.end(), [](const ir::Param &p) { return p.active; }))
      fail(m->getLocation(), "'this' is named in 'UNFAD_GRADIENT_WRT', but '" + rd->getNameAsString() +
                                 "' has no floating-point data member");
    viewThis_.insert(self);
    f.params.insert(f.params.begin(), leaves.begin(), leaves.end());
    thisStack_.assign(1, self);
    return;
  }
  ir::TypeP object = structType(rd, ctx_.getRecordType(rd), m->getLocation());
  const VarDecl *self = thisVar(m);
  ir::Param p;
  p.name = "this";
  names_.reserve(p.name);
  p.type = m->isConst() ? object : ir::Type::array(object);
  p.active = ir::isActive(p.type);
  if (hasWrt && std::find(wrt.begin(), wrt.end(), "this") == wrt.end()) p.active = false;
  else if (hasWrt && !p.active)
    fail(m->getLocation(), "'this' is named in 'UNFAD_GRADIENT_WRT', but '" + rd->getNameAsString() +
                               "' has no floating-point data member");
  env[self] = ir::Var::make(p.name, p.type);
  if (p.type->isArray()) {
    if (!p.active) passiveArrays_.insert(p.name);
    arrNames_[p.name] = p.name;
    refs_[self] = RefTarget{nullptr, self, env[self], ir::Const::makeInt(0), {}, nullptr};
  }
  f.params.insert(f.params.begin(), p);
  thisStack_.assign(1, self);
}

// The class of `m` as named at namespace scope ("Outer::Inner").
// A specialization of a class template is named with its arguments
// ("Spring<double>", template_methods.cpp).
std::string Lowering::className(const CXXMethodDecl *m) {
  std::string name;
  for (const DeclContext *dc = m->getParent(); dc && isa<CXXRecordDecl>(dc); dc = dc->getParent()) {
    std::string here = cast<CXXRecordDecl>(dc)->getNameAsString();
    if (const auto *spec = dyn_cast<ClassTemplateSpecializationDecl>(dc)) {
      here.clear();
      llvm::raw_string_ostream os(here);
      spec->getNameForDiagnostic(os, spec->getASTContext().getPrintingPolicy(), /*Qualified=*/false);
    }
    name = here + (name.empty() ? "" : "::" + name);
  }
  return name;
}

void Lowering::describeMethod(const CXXMethodDecl *m, ir::CxxInfo &cx) {
  QualType object = ctx_.getRecordType(m->getParent());
  if (m->isConst()) object.addConst();
  if (splitThis(m)) { // its members, read through `this` (CxxType::kThisParent)
    std::vector<ir::CxxType> leaves = describeLeaves(ctx_.getLValueReferenceType(object), ir::CxxType::kThisParent);
    cx.params.insert(cx.params.begin(), leaves.begin(), leaves.end());
  } else {
    cx.params.insert(cx.params.begin(), describeCxxType(ctx_.getLValueReferenceType(object), ctx_, policy_, false));
  }
  cx.memberOf = className(m);
  cx.isConstMethod = m->isConst();
  cx.definedInClass = !m->isOutOfLine();
  cx.isInline = cx.isInline || cx.definedInClass;
  // an explicit specialization of a class template's member (its gradient)
  // is not implicitly inline as the template's members are
  if (isa<ClassTemplateSpecializationDecl>(m->getParent())) cx.isInline = true;
}

// The ';' right after `loc` (a class's '}', a declaration's last token), or
// an error at `what`.
SourceLocation Lowering::semicolonAfter(SourceLocation loc, SourceLocation what, const std::string &where) {
  std::optional<Token> t = Lexer::findNextToken(sm_.getExpansionLoc(loc), sm_, ctx_.getLangOpts());
  if (!t || !t->is(tok::semi))
    fail(what, "the gradient of a marked member function is declared after " + where +
                   ", which must end with ';' here (no declarator after the class's '}')");
  return t->getLocation();
}

// Where a marked method's gradient goes (see the file comment).
void Lowering::placeMethodGradient(const CXXMethodDecl *m, MarkedFunction &out) {
  out.block = ir::memberGradientName(m->getNameAsString());
  out.block = className(m) + "::" + out.block;
  out.block.erase(std::remove(out.block.begin(), out.block.end(), ' '), out.block.end()); // ("Pair<double,2>")
  // a class template's method is placed by the template's text (an
  // instantiated method has the template's locations, but is not out of line)
  if (const FunctionDecl *pattern = m->getTemplateInstantiationPattern()) m = cast<CXXMethodDecl>(pattern);
  SourceLocation loc = m->getLocation();
  if (m->isOutOfLine()) {
    const FunctionDecl *inClass = m->getCanonicalDecl();
    out.declarationAfter = semicolonAfter(inClass->getEndLoc(), loc, "the method's declaration in its class");
    return; // the definition follows the method's body
  }
  out.declarationAfter = out.bodyEnd;
  const CXXRecordDecl *outer = m->getParent();
  while (const auto *up = dyn_cast<CXXRecordDecl>(outer->getParent())) outer = up;
  out.bodyEnd = semicolonAfter(outer->getBraceRange().getEnd(), loc, "the class");
}

} // namespace unfad::frontend
