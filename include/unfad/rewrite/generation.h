// Shared lowering of a translation unit: which files hold marked functions
// and where their blocks go. Used by the `unfad` command and the plugin.
#pragma once

#include "unfad/ir/ir.h"
#include "unfad/rewrite/rewrite.h"

#include <string>
#include <vector>

namespace clang {
class ASTContext;
class DiagnosticsEngine;
} // namespace clang

namespace unfad::rewrite {

// One file of a translation unit that holds marked functions.
struct FileBlocks {
  std::string name;      // as the SourceManager names it (for remapping it)
  std::string path;      // absolute, symbolic links resolved (for comparing files)
  bool isMainFile = false;
  std::string text;      // its text as this parse saw it
  std::vector<Splice> splices;
};

struct Lowering {
  ir::Program program;
  std::vector<FileBlocks> files; // in the order of their first marked function
};

// Lowers every marked function of the translation unit, in the main file and
// in the files it includes, and every function they reach. False when
// lowering failed; its diagnostics went to `diags`.
// With `numericalFallback`, see frontend::Options.
bool lowerTranslationUnit(clang::ASTContext &ctx, clang::DiagnosticsEngine &diags, bool lowerDespiteErrors,
                          Lowering &out, bool numericalFallback = false);

// unfad's include directory (for <unfad/unfad.h>) of an installed binary
// (<prefix>/bin/unfad or <prefix>/lib/unfad-plugin.so -> <prefix>/include),
// when <unfad/unfad.h> is there; otherwise `fallback` (the source tree's).
std::string includeDirBeside(const std::string &binary, const std::string &fallback);

} // namespace unfad::rewrite
