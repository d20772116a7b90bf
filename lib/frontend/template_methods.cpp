// Marked methods of class templates:
//
//   template <class T> struct Spring {
//     T k, x0;
//     UNFAD_GRADIENT T energy(T x) const { ... }
//   };
//
// The template's method cannot be lowered (its types depend on T), so each
// specialization of the class that the translation unit instantiates at
// floating-point type arguments (`Spring<double>`, `Spring<float>`; integer
// non-type arguments too: `Poly<3>`) is lowered as a marked method of its
// own, and gets a gradient member spelled for it. Other specializations
// (`Spring<int>`, `Spring<Dual>`) get none: their methods are not
// differentiable as written. The class template receives, right after the
// method, one declaration per specialization, with that specialization's
// concrete types (`double energy_grad(double x, Spring<double>* d_this,
// double* d_x) const;`: valid in every specialization, and only ever defined
// for its own), and after the class the definitions, as explicit
// specializations of the member (`template <> inline double
// Spring<double>::energy_grad(...) const { ... }`; lib/printer). Blocks are
// named per specialization ("Spring<double>::energy_grad").
//
// A file that only names `Spring<double>` (to call `energy_grad`) has not
// instantiated `energy`'s body: it is instantiated here through Sema
// (Options::sema, which the command and the plugin give).
//
// A marked function template (`template <class T> UNFAD_GRADIENT T f(T x)`)
// likewise: each instantiation the file uses at floating-point (or integer)
// arguments gets an ordinary overload `double f_grad(double x, double* d_x)`
// right after the template (block "f_grad<double>"), which calls such as
// `f_grad(x, &d_x)` pick by their arguments. Two instantiations whose
// gradients would have the same parameters (`p<3>`, `p<4>` of `template <int
// N> double p(double x)`) cannot both be overloads: a diagnostic.
#include "lowering.h"

#include <clang/AST/DeclTemplate.h>
#include <clang/Sema/Sema.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <map>

namespace unfad::frontend {

using namespace clang;

namespace {

// Template arguments unfad can generate a gradient for: double, float and
// integer values.
bool differentiableArguments(llvm::ArrayRef<TemplateArgument> args) {
  for (const TemplateArgument &a : args) {
    if (a.getKind() == TemplateArgument::Integral) continue;
    if (a.getKind() != TemplateArgument::Type) return false;
    QualType t = a.getAsType().getCanonicalType();
    if (!t->isSpecificBuiltinType(BuiltinType::Double) && !t->isSpecificBuiltinType(BuiltinType::Float)) return false;
  }
  return true;
}

} // namespace

std::vector<const FunctionDecl *> Lowering::templateMethodInstances(const CXXMethodDecl *pattern) {
  std::vector<const FunctionDecl *> out;
  const ClassTemplateDecl *ct = pattern->getParent()->getDescribedClassTemplate();
  if (!ct) return out;
  const Decl *canonical = pattern->getCanonicalDecl();
  for (ClassTemplateSpecializationDecl *spec : ct->specializations()) {
    TemplateSpecializationKind kind = spec->getSpecializationKind();
    if (kind == TSK_ExplicitSpecialization || kind == TSK_Undeclared || !spec->isCompleteDefinition()) continue;
    if (!differentiableArguments(spec->getTemplateArgs().asArray())) continue;
    for (Decl *d : spec->decls()) {
      auto *m = dyn_cast<CXXMethodDecl>(d);
      const FunctionDecl *from = m ? m->getInstantiatedFromMemberFunction() : nullptr;
      if (!from || from->getCanonicalDecl() != canonical) continue;
      if (!m->isDefined() && opts_.sema)
        opts_.sema->InstantiateFunctionDefinition(pattern->getLocation(), m, /*Recursive=*/true,
                                                  /*DefinitionRequired=*/false, /*AtEndOfTU=*/true);
      const FunctionDecl *def = m->getDefinition();
      if (!def || !def->hasBody()) {
        report(pattern->getLocation(), "the method of '" + className(m) +
                                           "' is not instantiated in this file (call it once, or instantiate the "
                                           "class explicitly: 'template struct " +
                                           className(m) + ";')");
        failed_ = true;
        continue;
      }
      out.push_back(def);
    }
  }
  return out;
}

std::string templateArgsSuffix(const FunctionDecl *fd) {
  const TemplateArgumentList *args = fd->getTemplateSpecializationArgs();
  if (!args) return "";
  std::string out;
  llvm::raw_string_ostream os(out);
  printTemplateArgumentList(os, args->asArray(), fd->getASTContext().getPrintingPolicy());
  os.flush();
  out.erase(std::remove(out.begin(), out.end(), ' '), out.end());
  return out;
}

std::vector<const FunctionDecl *> Lowering::functionTemplateInstances(const FunctionDecl *pattern) {
  std::vector<const FunctionDecl *> out;
  const FunctionTemplateDecl *ft = pattern->getDescribedFunctionTemplate();
  if (!ft) return out;
  std::map<std::vector<QualType>, const FunctionDecl *> bySignature; // overloads must differ
  for (FunctionDecl *inst : ft->specializations()) {
    TemplateSpecializationKind kind = inst->getTemplateSpecializationKind();
    if (kind == TSK_ExplicitSpecialization || kind == TSK_Undeclared) continue;
    const TemplateArgumentList *args = inst->getTemplateSpecializationArgs();
    if (!args || !differentiableArguments(args->asArray())) continue;
    if (!inst->isDefined() && opts_.sema)
      opts_.sema->InstantiateFunctionDefinition(pattern->getLocation(), inst, /*Recursive=*/true,
                                                /*DefinitionRequired=*/false, /*AtEndOfTU=*/true);
    const FunctionDecl *def = inst->getDefinition();
    if (!def || !def->hasBody()) continue; // (named, never called: nothing to differentiate)
    std::vector<QualType> sig;
    for (const ParmVarDecl *p : def->parameters()) sig.push_back(p->getType().getCanonicalType());
    auto [at, fresh] = bySignature.emplace(sig, def);
    if (!fresh) {
      report(pattern->getLocation(), "the gradients of '" + pattern->getNameAsString() + templateArgsSuffix(at->second) +
                                         "' and '" + pattern->getNameAsString() + templateArgsSuffix(def) +
                                         "' would be overloads with the same parameters (mark a function for each)");
      failed_ = true;
      continue;
    }
    out.push_back(def);
  }
  return out;
}

} // namespace unfad::frontend
