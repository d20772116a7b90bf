#include "unfad/rewrite/generation.h"

#include "unfad/frontend/frontend.h"

#include <clang/AST/ASTContext.h>
#include <clang/Basic/FileManager.h>
#include <clang/Basic/SourceManager.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>

namespace unfad::rewrite {
namespace {

// Relative names are relative to the compile command's directory, which the
// file manager knows (the process's may differ).
std::string realPath(clang::FileManager &files, clang::FileEntryRef entry) {
  llvm::SmallString<256> absolute(entry.getName());
  files.makeAbsolutePath(absolute);
  llvm::sys::path::remove_dots(absolute, /*remove_dot_dot=*/true);
  llvm::SmallString<256> real;
  if (!llvm::sys::fs::real_path(absolute, real)) return std::string(real);
  return std::string(absolute);
}

} // namespace

bool lowerTranslationUnit(clang::ASTContext &ctx, clang::DiagnosticsEngine &diags, bool lowerDespiteErrors,
                          Lowering &out, bool numericalFallback, bool deferGradientCalls, clang::Sema *sema) {
  std::vector<frontend::MarkedFunction> marked;
  frontend::Options options;
  options.mainFileOnly = false; // a marked function in a header is as marked as one in the main file
  options.lowerDespiteErrors = lowerDespiteErrors;
  options.numericalFallback = numericalFallback;
  options.deferGradientCalls = deferGradientCalls;
  options.sema = sema;
  if (!frontend::lowerMarkedFunctions(ctx, diags, out.program, &marked, options, &out.deferred)) return false;
  const clang::SourceManager &sm = ctx.getSourceManager();
  for (auto &[fid, splices] : splicesByFile(sm, marked)) {
    clang::OptionalFileEntryRef entry = sm.getFileEntryRefForID(fid);
    if (!entry) continue; // a macro expansion buffer or the like: nowhere to write
    FileBlocks file;
    file.name = std::string(entry->getName());
    file.path = realPath(sm.getFileManager(), *entry);
    file.isMainFile = fid == sm.getMainFileID();
    file.text = sm.getBufferData(fid).str();
    file.splices = splices;
    out.files.push_back(std::move(file));
  }
  return true;
}

std::string includeDirBeside(const std::string &binary, const std::string &fallback) {
  if (binary.empty()) return fallback;
  llvm::SmallString<256> dir(binary);
  llvm::sys::fs::make_absolute(dir);
  llvm::sys::path::remove_filename(dir);         // <prefix>/bin or <prefix>/lib
  llvm::sys::path::append(dir, "..", "include"); // <prefix>/include
  llvm::sys::path::remove_dots(dir, /*remove_dot_dot=*/true);
  llvm::SmallString<256> header(dir);
  llvm::sys::path::append(header, "unfad", "unfad.h");
  return llvm::sys::fs::exists(header) ? std::string(dir) : fallback;
}

} // namespace unfad::rewrite
