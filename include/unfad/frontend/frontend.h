// The Clang front end of unfad: finds the functions marked with
// UNFAD_GRADIENT / UNFAD_GRADIENT_WRT in a translation unit (after Sema) and
// lowers them, and every function they reach, to the typed IR.
//
// Unsupported constructs are reported through Clang's DiagnosticsEngine as
//   file:line:col: error: cannot differentiate 'f': <what>
// pointing at the construct; lowering never silently drops one.
#pragma once

#include "unfad/ir/ir.h"

#include <clang/Basic/SourceLocation.h>

#include <string>
#include <vector>

namespace clang {
class ASTContext;
class DiagnosticsEngine;
class FunctionDecl;
class Sema;
} // namespace clang

namespace unfad::frontend {

struct Options {
  // Only definitions in the main file count as marked; marked functions in
  // headers are then lowered as ordinary helpers when reachable, and a
  // marked declaration without a body is only an error in the main file.
  bool mainFileOnly = false;
  // Lower even when the translation unit already has errors (the tool uses
  // this to regenerate stale blocks that no longer compile, then verifies
  // the result by parsing it again). Only errors of the lowering count then
  // (a marked function with errors in its own body may be waiting for a
  // gradient: see deferGradientCalls).
  bool lowerDespiteErrors = false;
  // A call of a function without a visible body and without a registered
  // derivative, on values that may carry derivatives, is differentiated by
  // central differences (a warning at the call) instead of refused.
  bool numericalFallback = false;
  // A marked function that calls the gradient of another marked function
  // before it is generated (an undeclared or only declared `g_grad`) is left
  // out (lowerMarkedFunctions' `deferred`) for the caller's next round;
  // false: lowered, so that its errors are reported.
  bool deferGradientCalls = true;
  // When given, the bodies of marked methods of class templates that the
  // file did not need are instantiated (template_methods.cpp); without it,
  // such a method is a diagnostic asking to call it once.
  clang::Sema *sema = nullptr;
};

// One marked function that was lowered, for splicing its generated block.
struct MarkedFunction {
  const clang::FunctionDecl *decl = nullptr; // the definition
  std::string irName;                        // ir::Function::name
  std::string cxxName;                       // unqualified C++ name ("f" -> block "f_grad")
  std::string block;                         // the generated block's name: "f_grad", "Model::loss_grad"
  // File location of the last character of the code the gradient follows:
  // the closing '}' of the body, or for a member function defined in its
  // class the ';' ending the (outermost) class.
  clang::SourceLocation bodyEnd;
  // A member function: where the gradient's declaration goes, in the class
  // (after the method's body or its in-class declaration's ';'); invalid
  // for a free function.
  clang::SourceLocation declarationAfter;
};

// Lowers every marked function definition of the translation unit, and the
// functions they call (transitively), into `out` (appended, in source order).
// Returns false when any diagnostic error was emitted (by this call or
// earlier: a translation unit with errors is never lowered). `deferred`: a
// marked function was left out (see Options::lowerDespiteErrors).
bool lowerMarkedFunctions(clang::ASTContext &ctx, clang::DiagnosticsEngine &diags, ir::Program &out,
                          std::vector<MarkedFunction> *marked = nullptr, const Options &options = {},
                          bool *deferred = nullptr);

// True when `fd` carries UNFAD_GRADIENT or UNFAD_GRADIENT_WRT(...).
bool isMarked(const clang::FunctionDecl *fd);

} // namespace unfad::frontend
