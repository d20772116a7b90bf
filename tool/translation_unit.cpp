#include "translation_unit.h"

#include "unfad/rewrite/generation.h"

#include <clang/AST/ASTConsumer.h>
#include <clang/AST/ASTContext.h>
#include <clang/Basic/DiagnosticOptions.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Frontend/TextDiagnosticPrinter.h>
#include <clang/Sema/SemaConsumer.h>
#include <clang/Tooling/ArgumentsAdjusters.h>
#include <clang/Tooling/Tooling.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/raw_ostream.h>

#include <map>
#include <set>

#ifndef UNFAD_CLANG_RESOURCE_DIR
#define UNFAD_CLANG_RESOURCE_DIR ""
#endif

namespace unfad::tool {
namespace {

using clang::tooling::ArgumentInsertPosition;
using clang::tooling::getInsertArgumentAdjuster;

// Texts mapped over files for one parse (absolute path -> contents).
using Texts = std::map<std::string, std::string>;

// One run of Clang over an input.
struct Parse {
  bool ran = false;     // the AST was built
  bool lowered = false; // lowered (maybe despite compile errors, with allowErrors)
  bool ok = false;      // compiled without errors and lowered
  bool numericalFallback = false; // an option of the lowering (ParseSettings)
  bool deferGradientCalls = true;  // frontend::Options::deferGradientCalls
  rewrite::Lowering lowering;
  std::vector<std::string> deps;
  std::string diagnostics; // printed, as the compiler prints them
};

// (A SemaConsumer: marked methods of class templates may need their bodies
// instantiated, frontend::Options::sema.)
class Consumer : public clang::SemaConsumer {
public:
  Consumer(Parse &parse, bool allowErrors) : parse_(parse), allowErrors_(allowErrors) {}
  void InitializeSema(clang::Sema &sema) override { sema_ = &sema; }
  void ForgetSema() override { sema_ = nullptr; }

  void HandleTranslationUnit(clang::ASTContext &ctx) override {
    parse_.ran = true;
    clang::SourceManager &sm = ctx.getSourceManager();
    for (auto it = sm.fileinfo_begin(); it != sm.fileinfo_end(); ++it) {
      // relative to the compile command's directory, which the file manager knows
      llvm::SmallString<256> path(it->first.getName());
      sm.getFileManager().makeAbsolutePath(path);
      llvm::sys::path::remove_dots(path, /*remove_dot_dot=*/true);
      parse_.deps.push_back(std::string(path));
    }
    clang::DiagnosticsEngine &diags = ctx.getDiagnostics();
    if (diags.hasErrorOccurred() && !allowErrors_) return;
    parse_.lowered = rewrite::lowerTranslationUnit(ctx, diags, allowErrors_, parse_.lowering, parse_.numericalFallback,
                                                   parse_.deferGradientCalls, sema_);
    parse_.ok = parse_.lowered && !diags.hasErrorOccurred();
  }

private:
  Parse &parse_;
  bool allowErrors_;
  clang::Sema *sema_ = nullptr;
};

// What clang::tooling::newFrontendActionFactory asks for.
struct ConsumerFactory {
  Parse &parse;
  bool allowErrors;
  std::unique_ptr<clang::ASTConsumer> newASTConsumer() { return std::make_unique<Consumer>(parse, allowErrors); }
};

bool isHeaderName(llvm::StringRef path) {
  llvm::StringRef ext = llvm::sys::path::extension(path);
  return ext == ".h" || ext == ".hh" || ext == ".hpp" || ext == ".hxx" || ext == ".inc" || ext == ".inl" ||
         ext == ".ipp" || ext == ".tcc";
}

// The arguments unfad adds to every compile command.
std::vector<std::string> unfadArguments(const std::string &includeDir) {
  std::vector<std::string> extra;
  if (!std::string(UNFAD_CLANG_RESOURCE_DIR).empty())
    extra.push_back(std::string("-resource-dir=") + UNFAD_CLANG_RESOURCE_DIR);
  if (!includeDir.empty()) extra.push_back("-I" + includeDir);
  extra.push_back("-D__UNFAD__=1");
  extra.push_back("-fno-caret-diagnostics"); // only silences "N errors generated." (printed by us)
  return extra;
}

// Runs Clang on `absPath` with `mapped` over the files' contents.
Parse parse(const ParseSettings &settings, const std::string &absPath, const Texts &mapped, bool allowErrors = false,
            bool deferGradientCalls = true) {
  Parse result;
  result.numericalFallback = settings.numericalFallback;
  result.deferGradientCalls = deferGradientCalls;
  clang::tooling::ClangTool tool(*settings.database, {absPath});
  for (auto &[path, text] : mapped) tool.mapVirtualFile(path, text);
  tool.appendArgumentsAdjuster(
      getInsertArgumentAdjuster(unfadArguments(settings.includeDir), ArgumentInsertPosition::END));
  // A header given as an input (`unfad -i model.h`) is C++ too, and is
  // parsed as a header (no warning for its #pragma once).
  if (isHeaderName(absPath))
    tool.appendArgumentsAdjuster(getInsertArgumentAdjuster({"-xc++-header"}, ArgumentInsertPosition::BEGIN));
  llvm::raw_string_ostream os(result.diagnostics);
  auto options = llvm::makeIntrusiveRefCnt<clang::DiagnosticOptions>();
  options->ShowPresumedLoc = true; // as clang does: #line directives count (the rounds of `regenerate`)
  clang::TextDiagnosticPrinter printer(os, options.get());
  tool.setDiagnosticConsumer(&printer);
  tool.setPrintErrorMessage(false);
  ConsumerFactory consumers{result, allowErrors};
  if (tool.run(clang::tooling::newFrontendActionFactory(&consumers).get()) != 0) result.ok = false;
  os.flush();
  return result;
}

bool readFile(const std::string &path, std::string &out) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!buffer) return false;
  out = (*buffer)->getBuffer().str();
  return true;
}

bool generateCode(const Parse &parse, rewrite::CodeMap &code, const std::string &input) {
  std::string error;
  if (rewrite::generateCode(parse.lowering.program, code, error)) return true;
  llvm::errs() << input << ": error: internal error in unfad: " << error << "\n";
  return false;
}

// How the texts a parse saw were made from the texts on disk (by real
// path): their splices are mapped back through it. Files not in it were
// parsed as on disk.
using ParsedFrom = std::map<std::string, rewrite::Rewrite>;

// The files of `parse` with their blocks, spliced into their texts on disk
// (the input's: `inputText`). False when an included file cannot be read.
bool spliceFiles(const Parse &parse, const rewrite::CodeMap &code, const TranslationUnit &unit,
                 const std::string &inputText, std::vector<FileEdit> &out, const ParsedFrom &parsedFrom = {}) {
  out.clear();
  for (const rewrite::FileBlocks &file : parse.lowering.files) {
    FileEdit edit;
    edit.isInput = file.isMainFile;
    edit.path = file.isMainFile ? unit.input : file.path;
    edit.realPath = file.path;
    if (file.isMainFile) edit.original = inputText;
    else if (!readFile(file.path, edit.original)) {
      llvm::errs() << "unfad: error: cannot read '" << file.path << "'\n";
      return false;
    }
    edit.splices = file.splices;
    if (auto from = parsedFrom.find(file.path); from != parsedFrom.end())
      for (rewrite::Splice &splice : edit.splices)
        if (!rewrite::inputOffset(from->second, splice.offset, splice.offset)) {
          llvm::errs() << file.path << ": error: internal error in unfad: a marked function inside a generated block\n";
          return false;
        }
    edit.out = rewrite::rewrite(edit.original, edit.splices, code);
    out.push_back(std::move(edit));
  }
  auto input = std::find_if(out.begin(), out.end(), [](const FileEdit &e) { return e.isInput; });
  if (input != out.end()) std::rotate(out.begin(), input, input + 1);
  return true;
}

// The texts to parse without generated blocks: the input's, and those of
// the files it includes from its directory tree that hold blocks.
Texts withoutBlocks(const Parse &first, const std::string &absPath, const std::string &inputText) {
  Texts texts{{absPath, rewrite::blankBlocks(inputText)}};
  llvm::StringRef dir = llvm::sys::path::parent_path(absPath);
  for (const std::string &dep : first.deps) {
    std::string abs = absolute(dep), text;
    if (abs == absPath || !isInDirectory(abs, dir) || !readFile(abs, text)) continue;
    if (text.find("// unfad:begin ") != std::string::npos) texts[abs] = rewrite::blankBlocks(text);
  }
  return texts;
}

// Regenerates a unit that does not compile from its texts without blocks,
// in rounds: each round parses the texts on disk with the blocks generated so
// far, so that a marked function calling the gradient of another (a second
// derivative: `UNFAD_GRADIENT double dir(...) { ... f_grad(x, g) ... }`) is
// lowered once f_grad's block is there (frontend::Options::lowerDespiteErrors
// leaves it out until then). Accepted when a round compiles and generates
// what the previous one did.
bool regenerate(const ParseSettings &settings, const Parse &first, const std::string &inputText,
                TranslationUnit &unit, std::string &diagnostics) {
  Parse blank = parse(settings, unit.absPath, withoutBlocks(first, unit.absPath, inputText), /*allowErrors=*/true);
  // Lowering itself failed (not only the stale or missing blocks): its
  // diagnostics, at the construct, matter more than "use of undeclared
  // identifier 'f_grad'" alone.
  if (!blank.lowered && blank.ran) diagnostics = blank.diagnostics;
  rewrite::CodeMap code;
  std::vector<FileEdit> files;
  if (!blank.lowered || !generateCode(blank, code, unit.input) || !spliceFiles(blank, code, unit, inputText, files))
    return false;
  constexpr int kMaxRounds = 8; // gradients of gradients of ... (each level one round)
  for (int round = 0; round < kMaxRounds; ++round) {
    // The round's texts, with #line directives so that its diagnostics point
    // at the lines on disk.
    Texts texts{{unit.absPath, inputText}};
    ParsedFrom parsedFrom;
    for (const FileEdit &file : files) {
      rewrite::LineDirectives lines;
      lines.enabled = true;
      lines.atTop = false;
      lines.originalName = file.isInput ? unit.absPath : file.path;
      lines.generatedName = lines.originalName + " (unfad)";
      rewrite::Rewrite r = rewrite::rewrite(file.original, file.splices, code, lines);
      texts[file.isInput ? unit.absPath : file.path] = r.text;
      parsedFrom[file.realPath] = std::move(r);
    }
    Parse again = parse(settings, unit.absPath, texts, /*allowErrors=*/true);
    rewrite::CodeMap againCode;
    if (!again.lowered) {
      if (again.ran) diagnostics = again.diagnostics;
      return false;
    }
    if (!generateCode(again, againCode, unit.input)) return false;
    if (againCode == code) {
      diagnostics = again.diagnostics; // (only the errors that remain, not "undeclared 'f_grad'")
      if (again.ok && again.lowering.deferred) {
        // A marked function still waits for a gradient no round made (a
        // `g_grad` of no marked `g`): lowered now, for its diagnostics.
        diagnostics = parse(settings, unit.absPath, texts, /*allowErrors=*/true, /*deferGradientCalls=*/false).diagnostics;
        return false;
      }
      if (!again.ok) return false;
      unit.program = std::move(again.lowering.program);
      unit.deps = std::move(again.deps);
      unit.code = std::move(code);
      unit.files = std::move(files);
      return true;
    }
    if (!spliceFiles(again, againCode, unit, inputText, files, parsedFrom)) return false;
    code = std::move(againCode);
  }
  return false;
}

// Whether a marked function read a block this run changes (see
// rewrite::readsChangedBlock).
bool readsChangedBlock(const TranslationUnit &unit) {
  std::vector<const rewrite::Rewrite *> rewrites;
  for (const FileEdit &file : unit.files) rewrites.push_back(&file.out);
  return rewrite::readsChangedBlock(unit.program, rewrites);
}

} // namespace

std::string absolute(const std::string &path) {
  llvm::SmallString<256> abs(path);
  llvm::sys::fs::make_absolute(abs);
  llvm::sys::path::remove_dots(abs, /*remove_dot_dot=*/true);
  return std::string(abs);
}

std::string realPath(const std::string &path) {
  llvm::SmallString<256> real;
  if (llvm::sys::fs::real_path(path, real)) return absolute(path);
  return std::string(real);
}

bool isInDirectory(llvm::StringRef path, llvm::StringRef dir) {
  return path.starts_with(dir) && path.size() > dir.size() && llvm::sys::path::is_separator(path[dir.size()]);
}

bool processInput(const ParseSettings &settings, const std::string &input, TranslationUnit &unit) {
  unit.input = input;
  unit.absPath = absolute(input);
  std::string text;
  if (!readFile(input, text)) {
    llvm::errs() << "unfad: error: cannot read '" << input << "'\n";
    return false;
  }
  Parse first = parse(settings, unit.absPath, {{unit.absPath, text}});
  std::string diagnostics = first.diagnostics;
  bool ok = false;
  if (first.ok) {
    ok = (!settings.generate || generateCode(first, unit.code, input)) &&
         spliceFiles(first, unit.code, unit, text, unit.files);
    unit.program = std::move(first.lowering.program);
    unit.deps = std::move(first.deps);
    // A marked function waits for a gradient this run generates (it calls a
    // declared `g_grad`), or differentiated one whose block is stale: in
    // rounds, from the texts without blocks.
    if (ok && settings.generate && (first.lowering.deferred || readsChangedBlock(unit)))
      ok = regenerate(settings, first, text, unit, diagnostics);
  } else {
    ok = regenerate(settings, first, text, unit, diagnostics);
  }
  llvm::errs() << diagnostics;
  if (ok && (unit.files.empty() || !unit.files.front().isInput)) {
    // No marked function in the input itself: it is output unchanged.
    FileEdit self;
    self.path = input;
    self.realPath = realPath(unit.absPath);
    self.isInput = true;
    self.original = text;
    self.out.text = text;
    unit.files.insert(unit.files.begin(), std::move(self));
  }
  return ok;
}

} // namespace unfad::tool
