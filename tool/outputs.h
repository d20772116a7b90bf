// What the `unfad` command does with the rewritten files: print them, write
// them in place or to -o, or check them; and which files it may write.
#pragma once

#include "command_line.h"
#include "translation_unit.h"

#include <vector>

namespace unfad::tool {

// Carries out `commandLine.mode` (not Dump) for the processed inputs;
// returns the exit code.
//
// The blocks of a marked function in a file an input includes belong in
// that file. With -i it is rewritten when it lies in the input's directory or
// below (--check checks it); a file elsewhere is not unfad's to write
// (`unfad -i that/file.h` is), and with -o or standard output only the input
// is written: then the blocks must be up to date already, else it is an
// error that says where they belong and what to run.
int writeResults(const CommandLine &commandLine, const std::vector<TranslationUnit> &units);

} // namespace unfad::tool
