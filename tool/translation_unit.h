// One input of the `unfad` command: parse it with Clang, lower its marked
// functions (in it and in the files it includes), generate their blocks and
// splice them into the texts of the files they belong in.
#pragma once

#include "unfad/ir/ir.h"
#include "unfad/rewrite/rewrite.h"

#include <clang/Tooling/CompilationDatabase.h>

#include <string>
#include <vector>

namespace unfad::tool {

// A file whose blocks an input's translation unit generates: the input
// itself, or a file it includes that holds marked functions.
struct FileEdit {
  std::string path;     // the input as given; an included file as the compiler found it
  std::string realPath; // absolute, symbolic links resolved: the file's identity
  bool isInput = false;
  std::string original; // its text on disk
  std::vector<rewrite::Splice> splices; // where its blocks go (offsets into `original`)
  rewrite::Rewrite out; // `original` with the blocks; statuses relative to it
};

struct TranslationUnit {
  std::string input;    // as given
  std::string absPath;  // absolute
  ir::Program program;  // for --dump
  rewrite::CodeMap code; // the generated blocks, by marked function
  std::vector<FileEdit> files; // the input first
  std::vector<std::string> deps; // every file the compiler read
};

struct ParseSettings {
  clang::tooling::CompilationDatabase *database = nullptr;
  std::string includeDir; // unfad's include/ (for <unfad/unfad.h>)
  bool generate = true;   // false for --dump: lowering is enough
  bool numericalFallback = false; // --numerical-fallback
};

// Parses `input` and generates its blocks; prints the compiler's and unfad's
// diagnostics. A file that does not compile only because of its blocks (a
// stale one, or code calling f_grad before the first run) is regenerated
// from its text without the blocks, when the result compiles and is a fixed
// point. False when the input cannot be processed.
bool processInput(const ParseSettings &settings, const std::string &input, TranslationUnit &out);

// `path` absolute, `.` and `..` removed (symbolic links kept).
std::string absolute(const std::string &path);

// `path` absolute, with symbolic links resolved (as far as it exists).
std::string realPath(const std::string &path);

// Is `path` in directory `dir` or below it?
bool isInDirectory(llvm::StringRef path, llvm::StringRef dir);

} // namespace unfad::tool
