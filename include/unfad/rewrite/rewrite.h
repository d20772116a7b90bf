// Splicing generated gradient blocks into source text, shared by the `unfad`
// command (tool/unfad.cpp) and the clang plugin (tool/plugin.cpp).
//
// Clang-aware (it reads source locations of lowered marked functions) but it
// links no Clang or LLVM library itself: the command links clang-cpp/LLVM,
// the plugin gets the symbols from the clang that loads it.
#pragma once

#include "unfad/frontend/frontend.h"
#include "unfad/ir/ir.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace clang {
class SourceManager;
class FileID;
} // namespace clang

namespace unfad::rewrite {

// Where one generated block goes: right after the '}' of a marked function
// (for a marked method: its gradient's declaration in the class, and its
// definition after the method or the class, see frontend::MarkedFunction).
struct Splice {
  size_t offset = 0;  // byte offset just after the closing '}' (or ';')
  std::string block;  // the block's name in its markers: "f_grad", "Model::loss_grad"
  std::string irName; // key into CodeMap
};

// irName -> generated code; a method's declaration is under
// declarationKey(irName).
using CodeMap = std::map<std::string, std::string>;
inline std::string declarationKey(const std::string &irName) { return irName + "#declaration"; }
inline std::string declarationBlock(const std::string &block) { return block + ":declaration"; }

// `#line` directives for compiling a rewritten text instead of the original.
struct LineDirectives {
  bool enabled = false;
  // Presumed name of the original file (lines outside generated blocks map
  // to it, with their original line numbers).
  std::string originalName;
  // Presumed name for the lines of generated blocks; they are numbered as the
  // physical lines of the rewritten text. Empty: no directive before a block.
  std::string generatedName;
  // Start with `#line 1 "<originalName>"` (needed when the rewritten text is
  // compiled under another file name, e.g. the CMake step's copy).
  bool atTop = true;
};

struct Rewrite {
  std::string text;
  // (block, "missing" | "stale" | "edited" | "ok"), relative to the
  // input text. "edited": the block no longer matches the checksum in its
  // begin marker (`// unfad:begin f_grad checksum=xxxxxxxx`): changed by hand.
  std::vector<std::pair<std::string, std::string>> status;
  std::vector<std::pair<std::string, unsigned>> editedLines; // (name, line of f's end)
  // Where the text changed: input [inBegin, inEnd) became output [outBegin,
  // outEnd), in order; the text between them is copied.
  struct Edit {
    size_t inBegin, inEnd, outBegin, outEnd;
  };
  std::vector<Edit> edits;
};

// The input offset of `outOffset`, an offset into `r.text` outside the
// generated code (the start of an inserted block counts as outside: a
// splice there is the input's splice at the same place); false inside it.
bool inputOffset(const Rewrite &r, size_t outOffset, size_t &inOffset);

// Inserts (or replaces the existing, possibly stale, block of) every splice
// whose code is in `code`. Without line directives the result is exactly what
// `unfad` prints and `unfad -i` writes.
Rewrite rewrite(const std::string &text, const std::vector<Splice> &splices, const CodeMap &code,
                const LineDirectives &lines = {});

// Whether `program` lowered a function named like a block that one of
// `rewrites` changes: a marked function differentiated another's gradient
// as it was before (stale), so another round must run on the new text.
bool readsChangedBlock(const ir::Program &program, const std::vector<const Rewrite *> &rewrites);

// The text with the contents of every `// unfad:begin` ... `// unfad:end`
// block blanked (line structure kept), for parsing without stale blocks.
std::string blankBlocks(const std::string &text);

// Runs unfad::generate; false (and `error`) on an internal error.
bool generateCode(const ir::Program &program, CodeMap &code, std::string &error);

// The splices of the marked functions whose body ends in file `fid`.
std::vector<Splice> splicesIn(const clang::SourceManager &sm, const clang::FileID &fid,
                              const std::vector<frontend::MarkedFunction> &marked);

// The splices of all marked functions, grouped by the file (FileID) their body
// ends in.
std::map<clang::FileID, std::vector<Splice>> splicesByFile(const clang::SourceManager &sm,
                                                           const std::vector<frontend::MarkedFunction> &marked);

// `"path"` with '"' and '\' escaped, for #line.
std::string quoteLine(const std::string &path);

} // namespace unfad::rewrite
