// unfad: the refactoring command. Parses C++ files with Clang, lowers the
// marked functions, and splices the generated gradient code right after each
// one between `// unfad:begin f_grad` and `// unfad:end f_grad` lines.
//
//   unfad [options] <file>... [-- <compiler flags>]
#include "unfad/driver/pipeline.h"
#include "unfad/frontend/frontend.h"
#include "unfad/rewrite/rewrite.h"

#include <clang/AST/ASTConsumer.h>
#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/Basic/DiagnosticOptions.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendAction.h>
#include <clang/Frontend/TextDiagnosticPrinter.h>
#include <clang/Tooling/ArgumentsAdjusters.h>
#include <clang/Tooling/CompilationDatabase.h>
#include <clang/Tooling/JSONCompilationDatabase.h>
#include <clang/Tooling/Tooling.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#ifndef UNFAD_CLANG_RESOURCE_DIR
#define UNFAD_CLANG_RESOURCE_DIR ""
#endif
#ifndef UNFAD_INCLUDE_DIR
#define UNFAD_INCLUDE_DIR ""
#endif

using namespace clang;
using namespace clang::tooling;

namespace {

using unfad::rewrite::CodeMap;
using unfad::rewrite::Rewrite;
using unfad::rewrite::Splice;
using unfad::rewrite::blankBlocks;

std::string gIncludeDir; // unfad's include/ (for <unfad/unfad.h>)

const char *kUsage =
    "usage: unfad [options] <file>... [-- <compiler flags>]\n"
    "\n"
    "Writes the gradient f_grad of every function marked UNFAD_GRADIENT right after it.\n"
    "\n"
    "options:\n"
    "  (none)              print the rewritten file(s) to standard output\n"
    "  -i                  rewrite the files in place\n"
    "  -o FILE             write the rewritten (single) input to FILE\n"
    "  --depfile=FILE      with -o: write a Makefile-style dependency file\n"
    "  --line-directives   with -o: add #line directives, so that diagnostics and debuggers\n"
    "                      point at the original file (the CMake step uses this)\n"
    "  --check             change nothing; exit 1 when generated code is missing, stale or edited\n"
    "  --force             overwrite generated blocks that were edited by hand\n"
    "  -p <build-dir>      read compile_commands.json from <build-dir>\n"
    "  --dump=<stage>      print a pipeline stage instead: ir, unf, reverse, optimized\n"
    "  --dump-format=F     text (default) or json\n"
    "  -h, --help          this help\n"
    "  --version           print the version\n";

struct ParseResult {
  bool ok = false;      // compiled without errors and lowered
  bool lowered = false; // lowered (maybe despite compile errors, with allowErrors)
  bool ran = false;
  unfad::ir::Program program;
  std::vector<Splice> splices;
  std::vector<std::string> deps;
};

class Consumer : public ASTConsumer {
public:
  Consumer(CompilerInstance &ci, ParseResult &r, bool allowErrors) : ci_(ci), r_(r), allowErrors_(allowErrors) {}
  void HandleTranslationUnit(ASTContext &ctx) override {
    r_.ran = true;
    DiagnosticsEngine &diags = ci_.getDiagnostics();
    if (diags.hasErrorOccurred() && !allowErrors_) return;
    std::vector<unfad::frontend::MarkedFunction> marked;
    unfad::frontend::Options opts;
    opts.mainFileOnly = true;
    opts.lowerDespiteErrors = allowErrors_;
    if (!unfad::frontend::lowerMarkedFunctions(ctx, diags, r_.program, &marked, opts)) return;
    r_.lowered = true;
    SourceManager &sm = ctx.getSourceManager();
    r_.splices = unfad::rewrite::splicesIn(sm, sm.getMainFileID(), marked);
    for (auto it = sm.fileinfo_begin(); it != sm.fileinfo_end(); ++it) r_.deps.push_back(it->first.getName().str());
    r_.ok = !diags.hasErrorOccurred();
  }

private:
  CompilerInstance &ci_;
  ParseResult &r_;
  bool allowErrors_;
};

class Action : public ASTFrontendAction {
public:
  Action(ParseResult &r, bool allowErrors) : r_(r), allowErrors_(allowErrors) {}
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &ci, llvm::StringRef) override {
    return std::make_unique<Consumer>(ci, r_, allowErrors_);
  }

private:
  ParseResult &r_;
  bool allowErrors_;
};

class Factory : public FrontendActionFactory {
public:
  Factory(ParseResult &r, bool allowErrors) : r_(r), allowErrors_(allowErrors) {}
  std::unique_ptr<FrontendAction> create() override { return std::make_unique<Action>(r_, allowErrors_); }

private:
  ParseResult &r_;
  bool allowErrors_;
};

struct FileJob {
  std::string path;     // as given
  std::string absPath;  // absolute
  std::string original; // file contents
  ParseResult result;   // of the text the output is based on
  Rewrite out;          // the rewritten text; statuses relative to `original`
  std::vector<Splice> outSplices; // what `out` was made of (offsets into `original`)
  CodeMap outCode;
};

bool readFile(const std::string &path, std::string &out) {
  auto buf = llvm::MemoryBuffer::getFile(path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!buf) return false;
  out = (*buf)->getBuffer().str();
  return true;
}

// Writes atomically: a temporary file in the same directory, then rename.
bool writeAtomically(const std::string &path, const std::string &content, std::string &err) {
  llvm::SmallString<256> dir(path);
  llvm::sys::path::remove_filename(dir);
  if (dir.empty()) dir = ".";
  llvm::SmallString<256> model(dir);
  llvm::sys::path::append(model, llvm::sys::path::filename(path) + ".unfad-%%%%%%");
  int fd = -1;
  llvm::SmallString<256> tmp;
  if (auto ec = llvm::sys::fs::createUniqueFile(model, fd, tmp)) {
    err = "cannot create a temporary file next to '" + path + "': " + ec.message();
    return false;
  }
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << content;
    os.flush();
    if (os.has_error()) {
      err = "cannot write '" + std::string(tmp) + "'";
      os.clear_error();
      llvm::sys::fs::remove(tmp);
      return false;
    }
  }
  auto perms = llvm::sys::fs::getPermissions(path);
  if (perms) llvm::sys::fs::setPermissions(tmp, *perms);
  else llvm::sys::fs::setPermissions(tmp, llvm::sys::fs::perms(0644));
  if (auto ec = llvm::sys::fs::rename(tmp, path)) {
    err = "cannot rename onto '" + path + "': " + ec.message();
    llvm::sys::fs::remove(tmp);
    return false;
  }
  return true;
}

std::string makeEscape(const std::string &p) {
  std::string r;
  for (char c : p) {
    if (c == ' ' || c == '#') r += '\\';
    if (c == '$') r += '$';
    r += c;
  }
  return r;
}

// Runs Clang on one file, with `content` mapped over it. Returns diagnostics text.
ParseResult parse(CompilationDatabase &db, const FileJob &job, const std::string &content, std::string &diagText,
                  bool allowErrors = false) {
  ParseResult r;
  ClangTool tool(db, {job.absPath});
  tool.mapVirtualFile(job.absPath, content);
  std::vector<std::string> extra;
  if (std::string(UNFAD_CLANG_RESOURCE_DIR).size()) extra.push_back(std::string("-resource-dir=") + UNFAD_CLANG_RESOURCE_DIR);
  if (!gIncludeDir.empty()) extra.push_back("-I" + gIncludeDir);
  extra.push_back("-D__UNFAD__=1");
  extra.push_back("-fno-caret-diagnostics"); // only silences "N errors generated." (printed by us)
  tool.appendArgumentsAdjuster(getInsertArgumentAdjuster(extra, ArgumentInsertPosition::END));
  llvm::raw_string_ostream os(diagText);
  auto opts = llvm::makeIntrusiveRefCnt<DiagnosticOptions>();
  TextDiagnosticPrinter printer(os, opts.get());
  tool.setDiagnosticConsumer(&printer);
  tool.setPrintErrorMessage(false);
  Factory factory(r, allowErrors);
  int rc = tool.run(&factory);
  os.flush();
  if (rc != 0) r.ok = false;
  return r;
}

bool generateCode(const ParseResult &r, CodeMap &code, const std::string &path) {
  std::string error;
  if (unfad::rewrite::generateCode(r.program, code, error)) return true;
  llvm::errs() << path << ": error: internal error in unfad: " << error << "\n";
  return false;
}

// unfad's own include directory (for <unfad/unfad.h>): next to the executable
// when installed (<prefix>/bin/unfad -> <prefix>/include), else the source tree.
std::string unfadIncludeDir(const char *argv0) {
  std::string exe = llvm::sys::fs::getMainExecutable(argv0, (void *)&unfadIncludeDir);
  if (!exe.empty()) {
    llvm::SmallString<256> dir(exe);
    llvm::sys::path::remove_filename(dir);         // <prefix>/bin
    llvm::sys::path::append(dir, "..", "include"); // <prefix>/include
    llvm::sys::path::remove_dots(dir, /*remove_dot_dot=*/true);
    llvm::SmallString<256> header(dir);
    llvm::sys::path::append(header, "unfad", "unfad.h");
    if (llvm::sys::fs::exists(header)) return std::string(dir);
  }
  return UNFAD_INCLUDE_DIR;
}


} // namespace

int main(int argc, const char **argv) {
  // split at "--"
  std::vector<std::string> args, compilerFlags;
  bool haveDashDash = false;
  for (int i = 1; i < argc; ++i) {
    if (!haveDashDash && std::string(argv[i]) == "--") {
      haveDashDash = true;
      continue;
    }
    (haveDashDash ? compilerFlags : args).push_back(argv[i]);
  }
  bool inPlace = false, check = false, json = false, dump = false, lineDirectives = false, force = false;
  std::string output, depfile, buildDir;
  unfad::DumpStage stage = unfad::DumpStage::IR;
  std::vector<std::string> files;
  auto usageError = [](const std::string &m) {
    llvm::errs() << "unfad: error: " << m << "\n" << "run 'unfad --help' for usage\n";
    return 1;
  };
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string &a = args[i];
    auto value = [&](const std::string &opt, std::string &out) -> bool {
      if (a == opt) {
        if (i + 1 >= args.size()) return false;
        out = args[++i];
        return true;
      }
      if (a.rfind(opt + "=", 0) == 0) { out = a.substr(opt.size() + 1); return true; }
      if (opt.size() == 2 && a.rfind(opt, 0) == 0 && a.size() > 2) { out = a.substr(2); return true; }
      return false;
    };
    std::string v;
    if (a == "-h" || a == "--help" || a == "-help") { llvm::outs() << kUsage; return 0; }
    if (a == "--version") { llvm::outs() << "unfad 0.1.0\n"; return 0; }
    if (a == "-i") { inPlace = true; continue; }
    if (a == "--check") { check = true; continue; }
    if (a == "--force") { force = true; continue; }
    if (a == "--line-directives") { lineDirectives = true; continue; }
    if (a == "-o" || (a.rfind("-o", 0) == 0 && a.rfind("--", 0) != 0)) {
      if (!value("-o", output)) return usageError("'-o' needs a file name");
      continue;
    }
    if (a == "-p" || (a.rfind("-p", 0) == 0 && a.rfind("--", 0) != 0)) {
      if (!value("-p", buildDir)) return usageError("'-p' needs a build directory");
      continue;
    }
    if (a.rfind("--depfile", 0) == 0) {
      if (!value("--depfile", depfile)) return usageError("'--depfile' needs a file name");
      continue;
    }
    if (a.rfind("--dump-format", 0) == 0) {
      if (!value("--dump-format", v)) return usageError("'--dump-format' needs text or json");
      if (v == "json") json = true;
      else if (v == "text") json = false;
      else return usageError("unknown dump format '" + v + "' (text or json)");
      continue;
    }
    if (a.rfind("--dump", 0) == 0) {
      if (!value("--dump", v)) return usageError("'--dump' needs a stage (ir, unf, reverse, optimized)");
      if (!unfad::parseDumpStage(v, stage)) return usageError("unknown dump stage '" + v + "' (ir, unf, reverse, optimized)");
      dump = true;
      continue;
    }
    if (!a.empty() && a[0] == '-' && a != "-") return usageError("unknown option '" + a + "'");
    files.push_back(a);
  }
  if (files.empty()) return usageError("no input file");
  int modes = int(inPlace) + int(check) + int(!output.empty()) + int(dump);
  if (modes > 1) return usageError("'-i', '-o', '--check' and '--dump' exclude each other");
  if (!output.empty() && files.size() != 1) return usageError("'-o' needs exactly one input file");
  if (!depfile.empty() && output.empty()) return usageError("'--depfile' needs '-o'");
  if (lineDirectives && output.empty()) return usageError("'--line-directives' needs '-o'");
  gIncludeDir = unfadIncludeDir(argv[0]);

  // compilation database
  std::unique_ptr<CompilationDatabase> db;
  std::string err;
  if (haveDashDash) {
    db = std::make_unique<FixedCompilationDatabase>(".", compilerFlags);
  } else if (!buildDir.empty()) {
    auto json = JSONCompilationDatabase::loadFromDirectory(buildDir, err);
    if (!json) {
      llvm::errs() << "unfad: error: " << err << "\n";
      return 1;
    }
    db = inferMissingCompileCommands(std::move(json));
  } else {
    db = std::make_unique<FixedCompilationDatabase>(".", std::vector<std::string>{"-std=c++17"});
  }

  std::vector<FileJob> jobs;
  bool failed = false;
  for (const std::string &f : files) {
    FileJob job;
    job.path = f;
    llvm::SmallString<256> abs(f);
    llvm::sys::fs::make_absolute(abs);
    llvm::sys::path::remove_dots(abs, /*remove_dot_dot=*/true);
    job.absPath = std::string(abs);
    if (!readFile(f, job.original)) {
      llvm::errs() << "unfad: error: cannot read '" << f << "'\n";
      failed = true;
      continue;
    }
    std::string diag1;
    job.result = parse(*db, job, job.original, diag1);
    bool ok = false;
    if (job.result.ok) {
      CodeMap code;
      if (!dump && !generateCode(job.result, code, f)) {
        failed = true;
        continue;
      }
      job.out = unfad::rewrite::rewrite(job.original, job.result.splices, code);
      job.outSplices = job.result.splices;
      job.outCode = std::move(code);
      ok = true;
    } else {
      // The file may only fail to compile because of its generated code:
      // a stale block (a helper changed), or code calling f_grad before the
      // first run. Regenerate from the source without the blocks, and accept
      // the result only when it compiles cleanly and is a fixpoint; otherwise
      // report the original diagnostics.
      std::string diag2, diag3;
      ParseResult r2 = parse(*db, job, blankBlocks(job.original), diag2, /*allowErrors=*/true);
      CodeMap code2, code3;
      if (!r2.lowered && r2.ran) {
        // Lowering itself failed (not only the stale or missing blocks):
        // its diagnostics, at the construct, matter more than "use of
        // undeclared identifier 'f_grad'" alone.
        diag1 = diag2;
      }
      if (r2.lowered && generateCode(r2, code2, f)) {
        Rewrite rw2 = unfad::rewrite::rewrite(job.original, r2.splices, code2);
        ParseResult r3 = parse(*db, job, rw2.text, diag3);
        if (r3.ok && generateCode(r3, code3, f) &&
            unfad::rewrite::rewrite(rw2.text, r3.splices, code3).text == rw2.text) {
          job.result = std::move(r3);
          job.out = std::move(rw2);
          job.outSplices = r2.splices;
          job.outCode = std::move(code2);
          diag1 = diag3;
          ok = true;
        }
      }
    }
    llvm::errs() << diag1;
    if (!ok) {
      failed = true;
      continue;
    }
    jobs.push_back(std::move(job));
  }
  llvm::errs().flush();
  if (failed) return 1;

  if (dump) {
    for (auto &job : jobs) {
      try {
        llvm::outs() << unfad::dump(job.result.program, stage, json);
      } catch (std::exception &e) {
        llvm::errs() << job.path << ": error: internal error in unfad: " << e.what() << "\n";
        return 1;
      }
    }
    return 0;
  }

  // A block whose contents no longer match its checksum was edited by
  // hand: never overwritten silently.
  if (!check && !force) {
    bool edited = false;
    for (auto &job : jobs)
      for (auto &[name, line] : job.out.editedLines) {
        llvm::errs() << job.path << ":" << line << ":1: error: the generated block '" << name
                     << "' was edited by hand; use --force to overwrite it\n";
        edited = true;
      }
    if (edited) return 1;
  }

  if (check) {
    bool stale = false;
    for (auto &job : jobs) {
      for (auto &[name, status] : job.out.status)
        if (status != "ok") {
          llvm::outs() << job.path << ": '" << name << "' is " << status << "\n";
          stale = true;
        }
    }
    return stale ? 1 : 0;
  }

  if (!output.empty()) {
    FileJob &job = jobs[0];
    std::string text = job.out.text; // byte-identical to the printed form
    if (lineDirectives) {
      // the same blocks, with #line directives: the original's lines keep
      // their file and number, generated lines are the copy's own
      llvm::SmallString<256> absOut(output);
      llvm::sys::fs::make_absolute(absOut);
      llvm::sys::path::remove_dots(absOut, /*remove_dot_dot=*/true);
      unfad::rewrite::LineDirectives ld;
      ld.enabled = true;
      ld.originalName = job.absPath;
      ld.generatedName = std::string(absOut);
      text = unfad::rewrite::rewrite(job.original, job.outSplices, job.outCode, ld).text;
    }
    if (!writeAtomically(output, text, err)) {
      llvm::errs() << "unfad: error: " << err << "\n";
      return 1;
    }
    if (!depfile.empty()) {
      std::vector<std::string> deps;
      deps.push_back(job.absPath);
      std::set<std::string> seen{job.absPath};
      std::vector<std::string> rest;
      for (auto &d : job.result.deps) {
        llvm::SmallString<256> a(d);
        llvm::sys::fs::make_absolute(a);
        llvm::sys::path::remove_dots(a, true);
        if (seen.insert(std::string(a)).second) rest.push_back(std::string(a));
      }
      std::sort(rest.begin(), rest.end());
      deps.insert(deps.end(), rest.begin(), rest.end());
      std::string d = makeEscape(output) + ":";
      for (auto &p : deps) d += " \\\n  " + makeEscape(p);
      d += "\n";
      if (!writeAtomically(depfile, d, err)) {
        llvm::errs() << "unfad: error: " << err << "\n";
        return 1;
      }
    }
    return 0;
  }

  if (inPlace) {
    for (auto &job : jobs) {
      const std::string &text = job.out.text;
      if (text == job.original) continue;
      if (!writeAtomically(job.path, text, err)) {
        llvm::errs() << "unfad: error: " << err << "\n";
        return 1;
      }
    }
    return 0;
  }

  for (auto &job : jobs) llvm::outs() << job.out.text;
  return 0;
}
