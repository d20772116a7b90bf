// unfad: the refactoring command. Parses C++ files with Clang, lowers the
// marked functions, and splices the generated gradient code right after each
// one between `// unfad:begin f_grad` and `// unfad:end f_grad` lines.
//
//   unfad [options] <file>... [-- <compiler flags>]
#include "unfad/driver/pipeline.h"
#include "unfad/frontend/frontend.h"

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
    "  --check             change nothing; exit 1 when generated code is missing or stale\n"
    "  -p <build-dir>      read compile_commands.json from <build-dir>\n"
    "  --dump=<stage>      print a pipeline stage instead: ir, unf, reverse, optimized\n"
    "  --dump-format=F     text (default) or json\n"
    "  -h, --help          this help\n"
    "  --version           print the version\n";

struct Splice {
  size_t offset = 0; // right after the '}' of the marked function
  std::string cxxName;
  std::string irName;
};

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
    for (auto &m : marked) {
      auto [fid, off] = sm.getDecomposedLoc(m.bodyEnd);
      if (fid != sm.getMainFileID()) continue;
      r_.splices.push_back({size_t(off) + 1, m.cxxName, m.irName});
    }
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

// ------------------------------------------------------------ text utils --

bool usesCRLF(const std::string &text) {
  size_t n = text.find('\n');
  return n != std::string::npos && n > 0 && text[n - 1] == '\r';
}

std::string withEOL(const std::string &code, const std::string &nl) {
  std::string out;
  for (size_t i = 0; i < code.size(); ++i) {
    if (code[i] == '\r' && i + 1 < code.size() && code[i + 1] == '\n') continue;
    if (code[i] == '\n') out += nl;
    else out += code[i];
  }
  if (!out.empty() && (out.size() < nl.size() || out.compare(out.size() - nl.size(), nl.size(), nl) != 0)) out += nl;
  return out;
}

std::string beginMarker(const std::string &cxx) { return "// unfad:begin " + cxx + "_grad"; }
std::string endMarker(const std::string &cxx) { return "// unfad:end " + cxx + "_grad"; }

// An existing block right after `pos` (whitespace only in between): its end
// (just after the end marker), or npos.
size_t existingBlockEnd(const std::string &text, size_t pos, const std::string &cxx) {
  size_t j = pos;
  while (j < text.size() && (text[j] == ' ' || text[j] == '\t' || text[j] == '\r' || text[j] == '\n')) ++j;
  std::string b = beginMarker(cxx);
  if (text.compare(j, b.size(), b) != 0) return std::string::npos;
  size_t after = j + b.size();
  if (after < text.size() && text[after] != '\n' && text[after] != '\r') return std::string::npos;
  std::string e = endMarker(cxx);
  size_t k = text.find(e, after);
  if (k == std::string::npos) return std::string::npos;
  return k + e.size();
}

// Regions of all unfad blocks (for the retry without stale generated code).
std::string blankBlocks(const std::string &text) {
  std::string out = text;
  size_t pos = 0;
  while ((pos = out.find("// unfad:begin ", pos)) != std::string::npos) {
    size_t eol = out.find('\n', pos);
    if (eol == std::string::npos) break;
    std::string name = out.substr(pos + 15, eol - pos - 15);
    while (!name.empty() && (name.back() == '\r' || name.back() == ' ')) name.pop_back();
    std::string e = "// unfad:end " + name;
    size_t k = out.find(e, eol);
    if (k == std::string::npos) break;
    for (size_t i = eol; i < k; ++i)
      if (out[i] != '\n' && out[i] != '\r') out[i] = ' ';
    pos = k + e.size();
  }
  return out;
}

unsigned lineOf(const std::string &text, size_t pos) {
  return unsigned(std::count(text.begin(), text.begin() + std::min(pos, text.size()), '\n')) + 1;
}

std::string quoteLine(const std::string &path) {
  std::string r = "\"";
  for (char c : path) {
    if (c == '"' || c == '\\') r += '\\';
    r += c;
  }
  return r + "\"";
}

using CodeMap = std::map<std::string, std::string>; // irName -> generated code

struct Rewrite {
  std::string text;
  std::vector<std::pair<std::string, std::string>> status; // (cxxName_grad, "missing"/"stale"/"ok")
};

struct FileJob {
  std::string path;     // as given
  std::string absPath;  // absolute
  std::string original; // file contents
  ParseResult result;   // of the text the output is based on
  Rewrite out;          // the rewritten text; statuses relative to `original`
};

Rewrite rewrite(const std::string &text, const std::string &absPath, const std::vector<Splice> &splicesIn,
                const CodeMap &code, bool lineDirectives) {
  std::string nl = usesCRLF(text) ? "\r\n" : "\n";
  Rewrite r;
  std::vector<Splice> splices = splicesIn;
  std::sort(splices.begin(), splices.end(), [](const Splice &a, const Splice &b) { return a.offset < b.offset; });
  size_t cur = 0;
  if (lineDirectives) r.text += "#line 1 " + quoteLine(absPath) + nl;
  for (const Splice &s : splices) {
    auto it = code.find(s.irName);
    if (it == code.end() || s.offset < cur || s.offset > text.size()) continue;
    std::string block = nl + beginMarker(s.cxxName) + nl + withEOL(it->second, nl) + endMarker(s.cxxName);
    size_t end = existingBlockEnd(text, s.offset, s.cxxName);
    std::string status = "ok";
    if (end == std::string::npos) {
      status = "missing";
      end = s.offset;
    } else if (text.compare(s.offset, end - s.offset, block) != 0) {
      status = "stale";
    }
    r.status.push_back({s.cxxName + "_grad", status});
    r.text.append(text, cur, s.offset - cur);
    r.text += block;
    if (lineDirectives) r.text += nl + "#line " + std::to_string(lineOf(text, end)) + " " + quoteLine(absPath);
    cur = end;
  }
  r.text.append(text, cur, std::string::npos);
  return r;
}

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
  if (std::string(UNFAD_INCLUDE_DIR).size()) extra.push_back(std::string("-I") + UNFAD_INCLUDE_DIR);
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
  try {
    for (auto &b : unfad::generate(r.program)) code[b.markedName] = b.code;
    return true;
  } catch (std::exception &e) {
    llvm::errs() << path << ": error: internal error in unfad: " << e.what() << "\n";
    return false;
  }
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
  bool inPlace = false, check = false, json = false, dump = false;
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
      job.out = rewrite(job.original, job.absPath, job.result.splices, code, false);
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
      if (r2.lowered && generateCode(r2, code2, f)) {
        Rewrite rw2 = rewrite(job.original, job.absPath, r2.splices, code2, false);
        ParseResult r3 = parse(*db, job, rw2.text, diag3);
        if (r3.ok && generateCode(r3, code3, f) &&
            rewrite(rw2.text, job.absPath, r3.splices, code3, false).text == rw2.text) {
          job.result = std::move(r3);
          job.out = std::move(rw2);
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
    const std::string &text = job.out.text; // byte-identical to the printed form
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
