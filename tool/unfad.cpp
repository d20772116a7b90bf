// unfad: the refactoring command. Parses C++ files with Clang, lowers the
// marked functions, and splices the generated gradient code right after each
// one between `// unfad:begin f_grad` and `// unfad:end f_grad` lines.
//
//   unfad [options] <file>... [-- <compiler flags>]
//
// command_line.cpp reads the options, translation_unit.cpp parses and
// generates, outputs.cpp writes (or prints, or checks) the results.
#include "command_line.h"
#include "outputs.h"
#include "translation_unit.h"

#include "unfad/rewrite/generation.h"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/raw_ostream.h>

#include <exception>

#ifndef UNFAD_INCLUDE_DIR
#define UNFAD_INCLUDE_DIR ""
#endif

namespace {

using unfad::tool::CommandLine;
using unfad::tool::TranslationUnit;

int dumpPrograms(const CommandLine &commandLine, const std::vector<TranslationUnit> &units) {
  for (const TranslationUnit &unit : units) {
    try {
      llvm::outs() << (commandLine.dumpAfterPass.empty()
                           ? unfad::dump(unit.program, commandLine.stage, commandLine.json)
                           : unfad::dumpAfterPass(unit.program, commandLine.dumpAfterPass, commandLine.json));
    } catch (std::exception &e) {
      llvm::errs() << unit.input << ": error: internal error in unfad: " << e.what() << "\n";
      return 1;
    }
  }
  return 0;
}

} // namespace

int main(int argc, const char **argv) {
  CommandLine commandLine;
  if (std::optional<int> exit = unfad::tool::parseCommandLine(argc, argv, commandLine)) return *exit;

  unfad::tool::ParseSettings settings;
  settings.database = commandLine.database;
  // unfad's own include directory (for <unfad/unfad.h>): next to the
  // executable when installed (<prefix>/bin/unfad -> <prefix>/include).
  settings.includeDir = unfad::rewrite::includeDirBeside(
      llvm::sys::fs::getMainExecutable(argv[0], (void *)&dumpPrograms), UNFAD_INCLUDE_DIR);
  settings.generate = commandLine.mode != unfad::tool::Mode::Dump;
  settings.numericalFallback = commandLine.numericalFallback;

  // Every input is processed before anything is written: when one fails,
  // no file changes.
  std::vector<TranslationUnit> units;
  bool failed = false;
  for (const std::string &file : commandLine.files) {
    TranslationUnit unit;
    if (unfad::tool::processInput(settings, file, unit)) units.push_back(std::move(unit));
    else failed = true;
  }
  llvm::errs().flush();
  if (failed) return 1;
  if (commandLine.mode == unfad::tool::Mode::Dump) return dumpPrograms(commandLine, units);
  return unfad::tool::writeResults(commandLine, units);
}
