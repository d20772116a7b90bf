// Everything after the front end, free of Clang: UNF -> reverse ->
// optimise -> print, and the --dump stages.
#pragma once

#include "unfad/ir/ir.h"
#include <string>
#include <vector>

namespace unfad {

enum class DumpStage { IR, UNF, Reverse, Optimized };
bool parseDumpStage(const std::string &s, DumpStage &out);

struct GeneratedBlock {
  std::string markedName; // IR name of the marked function
  std::string cxxName;    // its C++ name, e.g. "energy" (block is "energy_grad")
  std::string code;       // C++ to place right after the marked function
  // A marked method's: its gradient's declaration, for the class (`code`
  // is then the definition, placed at namespace scope).
  std::string declaration;
};

// One block per marked function, in program order. Helper pullbacks are
// emitted (prototypes first, then definitions) in the first block of each
// namespace that needs them; later blocks in that namespace reuse them.
std::vector<GeneratedBlock> generate(const ir::Program &program);

// The text or JSON dump of one stage for every marked function.
std::string dump(const ir::Program &program, DumpStage stage, bool json);

// Whether `pass` names an optimiser pass (opt::passNames(), in pipeline
// order, for the message that lists the valid names).
bool isPassName(const std::string &pass);
// The program after reverse mode and the optimiser's pipeline up to and
// including the first run of `pass`, as text (ir::print) or JSON (the form
// --dump=reverse --dump-format=json prints). Throws ir::IRError when `pass`
// is not a pass name.
std::string dumpAfterPass(const ir::Program &program, const std::string &pass, bool json);

} // namespace unfad
