// The command line of `unfad`, on llvm::cl and Clang's CommonOptionsParser
// (-p, --extra-arg, --extra-arg-before, flags after `--`), as clang-tidy's.
#pragma once

#include "unfad/driver/pipeline.h"

#include <clang/Tooling/CommonOptionsParser.h>
#include <clang/Tooling/CompilationDatabase.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace unfad::tool {

// What the command does with the rewritten files; the flags exclude each other.
enum class Mode {
  Print,   // (no flag) print the rewritten inputs to standard output
  InPlace, // -i
  Output,  // -o FILE
  Check,   // --check
  Dump,    // --dump=<stage> or --dump-after=<pass>
};

struct CommandLine {
  Mode mode = Mode::Print;
  std::vector<std::string> files;
  std::string output;          // -o
  std::string depfile;         // --depfile (with -o)
  bool lineDirectives = false; // --line-directives (with -o)
  bool force = false;          // --force: overwrite blocks edited by hand
  bool numericalFallback = false; // --numerical-fallback
  DumpStage stage = DumpStage::IR;
  std::string dumpAfterPass;   // --dump-after=<pass> ("" = --dump=<stage>)
  bool json = false;           // --dump-format=json
  // The compilation database: the parser's (flags after `--`) or the one
  // found (-p, or compile_commands.json above the first source).
  clang::tooling::CompilationDatabase *database = nullptr;
  std::unique_ptr<clang::tooling::CommonOptionsParser> parser;
  std::unique_ptr<clang::tooling::CompilationDatabase> detectedDatabase;
};

// Parses the command line and finds the compilation database. Returns the
// exit code when the command is done already (--help, --version, a usage
// error, which it has reported).
std::optional<int> parseCommandLine(int argc, const char **argv, CommandLine &out);

} // namespace unfad::tool
