// unfad-plugin.so: the clang plugin.
//
//   clang++-19 -fplugin=<build>/lib/unfad-plugin.so -c model.cpp
//
// With the plugin loaded, `f_grad` is defined in the translation unit right
// after every marked `f` (in the main file or in a file it #includes), with the
// text `unfad -i` would write, and nothing is written to disk.
//
// Design. The plugin is an AddBeforeMainAction: clang runs the action the
// command line asked for (-c, -S, -emit-llvm, -fsyntax-only, with -MD, ...)
// unchanged, and calls the plugin when that action creates its AST consumers,
// i.e. after the preprocessor and the main file's entry are set up but before
// a single token is lexed. At that point the plugin
//   1. parses the main file (and what it includes) once more, separately, with
//      a copy of this compiler invocation (same flags, same resource dir, same
//      target), as -fsyntax-only, with its diagnostics captured;
//   2. lowers every marked function (main file and headers), runs unfad's
//      pipeline and splices the blocks exactly like `unfad` (an up-to-date or
//      stale block that is already there is replaced, never duplicated), plus
//      `#line` directives so that all other lines keep their file and number;
//   3. gives the rewritten texts to this compilation's SourceManager: headers
//      are overridden before they are first read; the main file, whose entry
//      already exists, is overridden and entered afresh as the main file.
// If lowering fails, its diagnostics (`file:line:col: error: cannot
// differentiate 'f': ...`) are reported through this compilation's
// DiagnosticsEngine, so the compile fails.
//
// -E is a preprocessor-only action: clang creates no AST consumer for it, so
// an AddBeforeMainAction is never called. When the command line has -E (read
// from /proc/self/cmdline when the library is loaded), the plugin is instead a
// ReplaceAction that does what clang's -E action does (print the preprocessed
// input), after doing the same generation in BeginInvocation and remapping
// the rewritten files through the PreprocessorOptions. So `-E` output
// contains the generated blocks, exactly as the compile sees them.
//
// Arguments (-fplugin-arg-unfad-<arg>):
//   dump=<ir|unf|reverse|optimized>  print that stage to stderr
//   dump-format=<text|json>          format of dump (default text)
//   no-line-directives               splice without #line directives
//   numerical-fallback               central differences for calls of functions without a body
//   help                             print this list to stderr
#include "unfad/driver/pipeline.h"
#include "unfad/frontend/frontend.h"
#include "unfad/rewrite/generation.h"
#include "unfad/rewrite/rewrite.h"

#include <clang/AST/ASTConsumer.h>
#include <clang/AST/ASTContext.h>
#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/DiagnosticOptions.h>
#include <clang/Basic/FileManager.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Basic/Version.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/CompilerInvocation.h>
#include <clang/Frontend/FrontendAction.h>
#include <clang/Frontend/FrontendPluginRegistry.h>
#include <clang/Frontend/Utils.h>
#include <clang/Lex/HeaderSearch.h>
#include <clang/Lex/Preprocessor.h>
#include <clang/Lex/PreprocessorOptions.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/raw_ostream.h>

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <vector>

#ifndef UNFAD_INCLUDE_DIR
#define UNFAD_INCLUDE_DIR ""
#endif

using namespace clang;

namespace {

// ------------------------------------------------------------ version check --
// The plugin is compiled against one Clang's headers and calls into the clang
// that loads it: only the same major version is ABI compatible. Checked when
// the library is loaded, before the plugin registers itself.
int majorOf(const std::string &fullVersion) {
  size_t p = fullVersion.find("version ");
  if (p == std::string::npos) return -1;
  p += 8;
  int v = 0;
  bool any = false;
  while (p < fullVersion.size() && fullVersion[p] >= '0' && fullVersion[p] <= '9') {
    v = v * 10 + (fullVersion[p++] - '0');
    any = true;
  }
  return any ? v : -1;
}

struct VersionCheck {
  VersionCheck() {
    std::string running = clang::getClangFullVersion();
    // For unfad's own tests: pretend to be loaded into another clang.
    if (const char *fake = std::getenv("UNFAD_PLUGIN_TEST_CLANG_VERSION")) running = fake;
    int major = majorOf(running);
    if (major == CLANG_VERSION_MAJOR) return;
    std::fprintf(stderr,
                 "error: unfad-plugin.so was built for Clang %d (%s) and cannot be loaded into '%s'; "
                 "use clang++-%d, or build unfad against this clang\n",
                 CLANG_VERSION_MAJOR, CLANG_VERSION_STRING, running.c_str(), CLANG_VERSION_MAJOR);
    std::fflush(stderr);
    std::_Exit(1);
  }
};
VersionCheck versionCheck; // before the registration below (same translation unit: in order)

// Is this a preprocess-only (-E) run? The plugin must decide its action type
// before it sees the compiler instance, so it reads its own command line: the
// driver's (cc1 runs in the driver's process) or cc1's (-fno-integrated-cc1),
// both spell the option "-E".
bool commandLineHasE() {
  FILE *f = std::fopen("/proc/self/cmdline", "rb");
  if (!f) return false;
  std::string all;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) all.append(buf, n);
  std::fclose(f);
  std::vector<std::string> args;
  size_t start = 0;
  for (size_t i = 0; i <= all.size(); ++i)
    if (i == all.size() || all[i] == '\0') {
      if (i > start) args.push_back(all.substr(start, i - start));
      start = i + 1;
    }
  // options whose value is the next argument (so a "-E" there is a value)
  static const char *takesValue[] = {"-Xlinker", "-Xassembler", "-Xpreprocessor", "-o", "-MF", "-MT", "-MQ", "-I",
                                     "-D", "-U", "-include", "-isystem", "-idirafter", "-iquote", "-x", "-L", "-l"};
  for (size_t i = 1; i < args.size(); ++i) {
    if (args[i] != "-E") continue;
    bool isValue = false;
    for (const char *o : takesValue)
      if (args[i - 1] == o) isValue = true;
    if (!isValue) return true;
  }
  return false;
}
const bool preprocessOnlyRun = commandLineHasE();

// ---------------------------------------------------------------- options --
struct PluginOptions {
  bool dump = false;
  unfad::DumpStage stage = unfad::DumpStage::IR;
  bool json = false;
  bool lineDirectives = true;
  bool numericalFallback = false;
};

const char *kHelp = "unfad plugin arguments (-fplugin-arg-unfad-<arg>):\n"
                    "  dump=<ir|unf|reverse|optimized>  print that pipeline stage to stderr\n"
                    "  dump-format=<text|json>          format of dump (default text)\n"
                    "  no-line-directives               splice without #line directives\n"
                    "  numerical-fallback               central differences for calls of functions without a body\n"
                    "  help                             print this list\n";

// True while the plugin runs its own (nested) parse: the nested compiler
// instance must not run the plugin again.
int nestedDepth = 0;

// unfad's include directory, for <unfad/unfad.h>: <dir of the .so>/../include
// when installed, else the source tree's include/.
std::string includeDir() {
  Dl_info info;
  bool found = dladdr((void *)&includeDir, &info) && info.dli_fname;
  return unfad::rewrite::includeDirBeside(found ? info.dli_fname : "", UNFAD_INCLUDE_DIR);
}

// --------------------------------------------------- diagnostics forwarding --
// Captures the nested parse's diagnostics. Those of the parse itself are
// dropped (the real compile reports them again); those of the lowering are
// re-reported through the real compile's DiagnosticsEngine, at the same file
// offset.
class Forwarder : public DiagnosticConsumer {
public:
  bool lowering = false;
  unsigned errors = 0;

  void HandleDiagnostic(DiagnosticsEngine::Level level, const Diagnostic &info) override {
    if (!lowering || level == DiagnosticsEngine::Ignored) return;
    llvm::SmallString<256> msg;
    info.FormatDiagnostic(msg);
    Pending p;
    p.level = level == DiagnosticsEngine::Fatal ? DiagnosticsEngine::Error : level;
    p.message = std::string(msg);
    if (info.hasSourceManager() && info.getLocation().isValid()) {
      SourceManager &ism = info.getSourceManager();
      auto [fid, off] = ism.getDecomposedLoc(ism.getFileLoc(info.getLocation()));
      if (OptionalFileEntryRef fe = ism.getFileEntryRefForID(fid)) {
        p.file = std::string(fe->getName());
        p.offset = off;
      }
    }
    add(std::move(p));
  }

  void error(const std::string &message) { add({DiagnosticsEngine::Error, message, "", 0}); }

  // Forgets the warnings of a round of generation that another round repeats.
  void discardPending() { pending_.clear(); }

  // Reports what was collected through the real compile's DiagnosticsEngine
  // (its diagnostic client must have begun the source file).
  void flush(CompilerInstance &outer) {
    DiagnosticsEngine &d = outer.getDiagnostics();
    for (const Pending &p : pending_) d.Report(outerLocation(outer, p), d.getCustomDiagID(p.level, "%0")) << p.message;
    pending_.clear();
  }

private:
  struct Pending {
    DiagnosticsEngine::Level level;
    std::string message;
    std::string file; // empty: no location
    unsigned offset = 0;
  };
  std::vector<Pending> pending_;

  void add(Pending p) {
    if (p.level >= DiagnosticsEngine::Error) ++errors;
    pending_.push_back(std::move(p));
  }

  static SourceLocation outerLocation(CompilerInstance &outer, const Pending &p) {
    if (p.file.empty() || !outer.hasSourceManager()) return {};
    SourceManager &osm = outer.getSourceManager();
    OptionalFileEntryRef ofe = outer.getFileManager().getOptionalFileRef(p.file);
    if (!ofe) return {};
    FileID ofid;
    OptionalFileEntryRef mainFE = osm.getFileEntryRefForID(osm.getMainFileID());
    if (mainFE && mainFE->getUniqueID() == ofe->getUniqueID()) ofid = osm.getMainFileID();
    else ofid = osm.getOrCreateFileID(*ofe, SrcMgr::C_User);
    if (ofid.isInvalid()) return {};
    return osm.getLocForStartOfFile(ofid).getLocWithOffset(p.offset);
  }
};

// --------------------------------------------------------- nested parse --
// One round of generation (see UnfadPluginAction::generate).
struct Generated {
  bool ran = false;
  bool failed = false;            // lowering or generation failed (reported)
  std::string dumpText;           // with the dump option
  std::map<std::string, std::string> files; // file name (as the nested parse saw it) -> rewritten text
  // Per rewritten file: its text on disk, and the rewrite that made
  // `files[name]` (to map the next round's places back to the disk text).
  struct FileState {
    std::string original;
    unfad::rewrite::Rewrite rewritten;
  };
  std::map<std::string, FileState> states;
  unfad::rewrite::CodeMap code;
  bool anotherRound = false; // a marked function waits for this round's blocks, or read a stale one
  bool deferred = false;     // a marked function waits for a gradient (frontend::Options::deferGradientCalls)
  bool deferGradientCalls = true; // (the last round: false, for the diagnostics of one still waiting)
};

class GenConsumer : public ASTConsumer {
public:
  GenConsumer(CompilerInstance &ci, Forwarder &fwd, const PluginOptions &opts, Generated &out)
      : ci_(ci), fwd_(fwd), opts_(opts), out_(out) {}

  void HandleTranslationUnit(ASTContext &ctx) override {
    out_.ran = true;
    DiagnosticsEngine &diags = ci_.getDiagnostics();
    // After a fatal error (a missing #include, ...) the AST is cut short; the
    // real compile reports the error itself.
    if (diags.hasFatalErrorOccurred()) return;
    // Code after f calls f_grad, which does not exist yet in this parse.
    unfad::rewrite::Lowering lowering;
    fwd_.lowering = true;
    bool ok = unfad::rewrite::lowerTranslationUnit(ctx, diags, /*lowerDespiteErrors=*/true, lowering, opts_.numericalFallback,
                                                   out_.deferGradientCalls, ci_.hasSema() ? &ci_.getSema() : nullptr);
    fwd_.lowering = false;
    if (!ok) {
      out_.failed = true;
      if (fwd_.errors == 0) fwd_.error("unfad: the marked functions could not be differentiated");
      return;
    }
    out_.deferred = lowering.deferred;
    if (lowering.files.empty()) return;
    if (opts_.dump && !dump(lowering.program)) return;
    unfad::rewrite::CodeMap code;
    std::string error;
    if (!unfad::rewrite::generateCode(lowering.program, code, error)) {
      fwd_.error("internal error in unfad: " + error);
      out_.failed = true;
      return;
    }
    out_.files.clear(); // (each round rewrites the texts on disk anew)
    std::map<std::string, Generated::FileState> states;
    std::vector<const unfad::rewrite::Rewrite *> plainRewrites;
    std::vector<unfad::rewrite::Rewrite> plain;
    plain.reserve(lowering.files.size());
    for (const unfad::rewrite::FileBlocks &file : lowering.files) {
      // This round parsed the previous round's text of the file, or the file on disk.
      Generated::FileState state{file.text, {}};
      std::vector<unfad::rewrite::Splice> splices = file.splices;
      if (auto prev = out_.states.find(file.name); prev != out_.states.end()) {
        state.original = prev->second.original;
        for (unfad::rewrite::Splice &s : splices)
          if (!unfad::rewrite::inputOffset(prev->second.rewritten, s.offset, s.offset)) {
            fwd_.error("internal error in unfad: a marked function inside a generated block");
            out_.failed = true;
            return;
          }
      }
      unfad::rewrite::LineDirectives lines;
      lines.enabled = opts_.lineDirectives;
      lines.atTop = false; // the rewritten text is compiled under its own name
      lines.originalName = file.name;
      lines.generatedName = lines.originalName + " (unfad)";
      plain.push_back(unfad::rewrite::rewrite(state.original, splices, code));
      plainRewrites.push_back(&plain.back());
      if (plain.back().text == state.original) continue; // blocks already there and up to date
      state.rewritten = unfad::rewrite::rewrite(state.original, splices, code, lines);
      out_.files[file.name] = state.rewritten.text;
      states[file.name] = std::move(state);
    }
    out_.anotherRound = code != out_.code && (lowering.deferred || unfad::rewrite::readsChangedBlock(lowering.program, plainRewrites));
    out_.states = std::move(states);
    out_.code = std::move(code);
  }

private:
  bool dump(const unfad::ir::Program &program) {
    try {
      out_.dumpText = unfad::dump(program, opts_.stage, opts_.json);
      return true;
    } catch (std::exception &e) {
      fwd_.error(std::string("internal error in unfad: ") + e.what());
      out_.failed = true;
      return false;
    }
  }

  CompilerInstance &ci_;
  Forwarder &fwd_;
  const PluginOptions &opts_;
  Generated &out_;
};

class GenAction : public ASTFrontendAction {
public:
  GenAction(Forwarder &fwd, const PluginOptions &opts, Generated &out) : fwd_(fwd), opts_(opts), out_(out) {}
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &ci, llvm::StringRef) override {
    return std::make_unique<GenConsumer>(ci, fwd_, opts_, out_);
  }

private:
  Forwarder &fwd_;
  const PluginOptions &opts_;
  Generated &out_;
};

// ------------------------------------------------------------- the plugin --
class UnfadPluginAction : public PluginASTAction {
public:
  ActionType getActionType() override { return preprocessOnlyRun ? ReplaceAction : AddBeforeMainAction; }

  bool ParseArgs(const CompilerInstance &cci, const std::vector<std::string> &args) override {
    if (nestedDepth > 0) return false; // our own nested parse: no plugin there
    CompilerInstance &ci = const_cast<CompilerInstance &>(cci);
    addIncludeDir(ci); // even when an argument is wrong: one error, not two
    DiagnosticsEngine &d = ci.getDiagnostics();
    auto error = [&](const std::string &m) {
      d.Report(d.getCustomDiagID(DiagnosticsEngine::Error, "unfad plugin: %0")) << m;
      return false; // clang then skips the plugin; the error fails the compile
    };
    for (const std::string &a : args) {
      if (a == "help") {
        llvm::errs() << kHelp;
        continue;
      }
      if (a == "no-line-directives") {
        opts_.lineDirectives = false;
        continue;
      }
      if (a == "numerical-fallback") {
        opts_.numericalFallback = true;
        continue;
      }
      if (a.rfind("dump=", 0) == 0) {
        if (!unfad::parseDumpStage(a.substr(5), opts_.stage))
          return error("unknown dump stage '" + a.substr(5) + "' in '-fplugin-arg-unfad-" + a +
                       "' (expected ir, unf, reverse or optimized)");
        opts_.dump = true;
        continue;
      }
      if (a.rfind("dump-format=", 0) == 0) {
        std::string v = a.substr(12);
        if (v == "json") opts_.json = true;
        else if (v == "text") opts_.json = false;
        else return error("unknown dump format '" + v + "' in '-fplugin-arg-unfad-" + a + "' (expected text or json)");
        continue;
      }
      return error("unknown argument '-fplugin-arg-unfad-" + a +
                   "' (expected dump=<stage>, dump-format=<text|json>, no-line-directives, numerical-fallback or help)");
    }
    return true;
  }

  // AddBeforeMainAction: called when the real action creates its consumers.
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &ci, llvm::StringRef) override {
    if (nestedDepth == 0 && !preprocessOnlyRun) runBeforeMain(ci);
    return std::make_unique<ASTConsumer>();
  }

  // ReplaceAction (-E): generate before anything is set up, remap, then print
  // the preprocessed input like clang's PrintPreprocessedAction.
  bool usesPreprocessorOnly() const override { return preprocessOnlyRun; }
  bool BeginInvocation(CompilerInstance &ci) override {
    if (!preprocessOnlyRun || nestedDepth > 0) return true;
    const FrontendInputFile &input = getCurrentInput();
    if (!input.isFile() || input.getFile() == "-") return true;
    Generated gen;
    generate(ci, std::string(input.getFile()), input.getKind(), gen);
    for (auto &[name, text] : gen.files)
      ci.getPreprocessorOpts().addRemappedFile(name, llvm::MemoryBuffer::getMemBufferCopy(text, name).release());
    return true;
  }
  bool BeginSourceFileAction(CompilerInstance &ci) override {
    fwd_.flush(ci); // the diagnostic client is ready now
    return true;
  }
  void ExecuteAction() override {
    CompilerInstance &ci = getCompilerInstance();
    std::unique_ptr<llvm::raw_ostream> os = ci.createDefaultOutputFile(false, getCurrentFileOrBufferName());
    if (!os) return;
    DoPrintPreprocessedInput(ci.getPreprocessor(), os.get(), ci.getPreprocessorOutputOpts());
  }

private:
  void addIncludeDir(CompilerInstance &ci) {
    // <unfad/unfad.h> without flags, as with the command: after all other
    // include directories (like -idirafter).
    std::string dir = includeDir();
    if (dir.empty()) return;
    if (ci.hasPreprocessor()) {
      if (auto ref = ci.getFileManager().getOptionalDirectoryRef(dir))
        ci.getPreprocessor().getHeaderSearchInfo().AddSystemSearchPath(
            DirectoryLookup(*ref, SrcMgr::C_User, /*isFramework=*/false));
    } else {
      ci.getHeaderSearchOpts().AddPath(dir, frontend::After, false, false);
    }
  }

  // The nested parses: a copy of this invocation, as -fsyntax-only, with no
  // outputs, on `file`; again on the rewritten texts while a marked function
  // waits for the gradient of another (second derivatives: its body calls
  // g_grad, which only the previous round's text has) or read a stale block.
  void generate(CompilerInstance &ci, const std::string &file, InputKind kind, Generated &gen) {
    constexpr int kMaxRounds = 8;
    for (int round = 0; round < kMaxRounds; ++round) {
      gen.anotherRound = false;
      gen.ran = false;
      if (round > 0) fwd_.discardPending();
      parseOnce(ci, file, kind, gen);
      if (gen.failed || !gen.anotherRound) break;
    }
    if (!gen.failed && gen.deferred) { // still waiting for a gradient no round made: its errors
      gen.deferGradientCalls = false;
      fwd_.discardPending();
      parseOnce(ci, file, kind, gen);
    }
    if (!gen.dumpText.empty()) llvm::errs() << gen.dumpText;
    if (gen.failed) gen.files.clear();
  }

  void parseOnce(CompilerInstance &ci, const std::string &file, InputKind kind, Generated &gen) {
    auto inv = std::make_shared<CompilerInvocation>(ci.getInvocation());
    FrontendOptions &fe = inv->getFrontendOpts();
    fe.ProgramAction = frontend::ParseSyntaxOnly;
    fe.ActionName.clear();
    fe.OutputFile.clear();
    fe.Plugins.clear();
    fe.AddPluginActions.clear();
    fe.PluginArgs.clear();
    fe.ShowStats = false;
    fe.StatsFile.clear();
    fe.TimeTracePath.clear();
    fe.DisableFree = false;
    fe.Inputs.clear();
    fe.Inputs.emplace_back(file, kind);
    inv->getDependencyOutputOpts() = DependencyOutputOptions();
    inv->getDiagnosticOpts().ErrorLimit = 0;
    inv->getDiagnosticOpts().ShowCarets = false; // no "N errors generated."
    inv->getPreprocessorOpts().addMacroDef("__UNFAD__=1");
    for (auto &[name, text] : gen.files) // the previous round's
      inv->getPreprocessorOpts().addRemappedFile(name, llvm::MemoryBuffer::getMemBufferCopy(text, name).release());
    // unfad's include directory: in -E mode ParseArgs added it to the
    // options copied here; otherwise to the live HeaderSearch only.
    std::string incDir = includeDir();
    if (!incDir.empty() && ci.hasPreprocessor())
      inv->getHeaderSearchOpts().AddPath(incDir, frontend::After, false, false);

    CompilerInstance nested(ci.getPCHContainerOperations());
    nested.setInvocation(inv);
    nested.createDiagnostics(&fwd_, /*ShouldOwnClient=*/false);
    if (ci.hasFileManager()) nested.createFileManager(ci.getFileManager().getVirtualFileSystemPtr());
    else nested.createFileManager(createVFSFromCompilerInvocation(*inv, nested.getDiagnostics()));
    GenAction action(fwd_, opts_, gen);
    ++nestedDepth;
    nested.ExecuteAction(action);
    --nestedDepth;
  }

  void runBeforeMain(CompilerInstance &ci) {
    if (ci.getLangOpts().isCompilingModule()) return; // implicit module builds
    SourceManager &sm = ci.getSourceManager();
    OptionalFileEntryRef mainFE = sm.getFileEntryRefForID(sm.getMainFileID());
    DiagnosticsEngine &diags = ci.getDiagnostics();
    if (!mainFE || ci.getFrontendOpts().Inputs.empty()) {
      diags.Report(diags.getCustomDiagID(DiagnosticsEngine::Warning,
                                         "unfad plugin: the input is not a file; no gradients are generated"));
      return;
    }
    Generated gen;
    generate(ci, std::string(mainFE->getName()), ci.getFrontendOpts().Inputs.front().getKind(), gen);
    fwd_.flush(ci);

    // Hand the rewritten texts to this compilation.
    FileManager &fm = ci.getFileManager();
    for (auto &[name, text] : gen.files) {
      OptionalFileEntryRef ref = fm.getOptionalFileRef(name);
      if (!ref) continue;
      auto buffer = llvm::MemoryBuffer::getMemBufferCopy(text, name);
      if (ref->getUniqueID() == mainFE->getUniqueID()) {
        // The main file's entry was created with the size of the file on
        // disk: enter the new contents as a new main file.
        sm.overrideFileContents(*mainFE, std::move(buffer));
        sm.setMainFileID(sm.createFileID(*mainFE, SourceLocation(), SrcMgr::C_User));
      } else {
        sm.overrideFileContents(*ref, std::move(buffer));
      }
    }
  }

  PluginOptions opts_;
  Forwarder fwd_;
};

} // namespace

static FrontendPluginRegistry::Add<UnfadPluginAction>
    registration("unfad", "define f_grad after every function marked UNFAD_GRADIENT");
