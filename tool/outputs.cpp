#include "outputs.h"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <map>
#include <set>

namespace unfad::tool {
namespace {

// Writes atomically: a temporary file in the same directory, then rename.
bool writeAtomically(const std::string &path, const std::string &content) {
  llvm::SmallString<256> model(llvm::sys::path::parent_path(path));
  if (model.empty()) model = ".";
  llvm::sys::path::append(model, llvm::sys::path::filename(path) + ".unfad-%%%%%%");
  int fd = -1;
  llvm::SmallString<256> tmp;
  if (auto ec = llvm::sys::fs::createUniqueFile(model, fd, tmp)) {
    llvm::errs() << "unfad: error: cannot create a temporary file next to '" << path << "': " << ec.message() << "\n";
    return false;
  }
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << content;
    os.flush();
    if (os.has_error()) {
      llvm::errs() << "unfad: error: cannot write '" << tmp << "'\n";
      os.clear_error();
      llvm::sys::fs::remove(tmp);
      return false;
    }
  }
  auto perms = llvm::sys::fs::getPermissions(path);
  llvm::sys::fs::setPermissions(tmp, perms ? *perms : llvm::sys::fs::perms(0644));
  if (auto ec = llvm::sys::fs::rename(tmp, path)) {
    llvm::errs() << "unfad: error: cannot rename onto '" << path << "': " << ec.message() << "\n";
    llvm::sys::fs::remove(tmp);
    return false;
  }
  return true;
}

std::string makeEscape(const std::string &path) {
  std::string escaped;
  for (char c : path) {
    if (c == ' ' || c == '#') escaped += '\\';
    if (c == '$') escaped += '$';
    escaped += c;
  }
  return escaped;
}

// A Makefile rule: `output` depends on the input and every file it read.
bool writeDepfile(const std::string &depfile, const std::string &output, const TranslationUnit &unit) {
  std::set<std::string> seen{unit.absPath};
  std::vector<std::string> rest;
  for (const std::string &dep : unit.deps)
    if (seen.insert(absolute(dep)).second) rest.push_back(absolute(dep));
  std::sort(rest.begin(), rest.end());
  std::string rule = makeEscape(output) + ": \\\n  " + makeEscape(unit.absPath);
  for (const std::string &path : rest) rule += " \\\n  " + makeEscape(path);
  return writeAtomically(depfile, rule + "\n");
}

int writeOutput(const CommandLine &commandLine, const TranslationUnit &unit) {
  const FileEdit &input = unit.files.front();
  std::string text = input.out.text; // byte-identical to the printed form
  if (commandLine.lineDirectives) {
    // the same blocks, with #line directives: the original's lines keep
    // their file and number, generated lines are the copy's own
    rewrite::LineDirectives lines;
    lines.enabled = true;
    lines.originalName = unit.absPath;
    lines.generatedName = absolute(commandLine.output);
    text = rewrite::rewrite(input.original, input.splices, unit.code, lines).text;
  }
  if (!writeAtomically(commandLine.output, text)) return 1;
  if (!commandLine.depfile.empty() && !writeDepfile(commandLine.depfile, commandLine.output, unit)) return 1;
  return 0;
}

// The line of the marked function whose block is `block` ("f_grad").
unsigned lineOfBlock(const FileEdit &file, const std::string &block) {
  for (const rewrite::Splice &splice : file.splices)
    if (splice.block == block)
      return unsigned(std::count(file.original.begin(), file.original.begin() + splice.offset, '\n')) + 1;
  return 1;
}

// Why an included file whose blocks are not up to date is not written.
void reportUnwritten(const CommandLine &commandLine, const TranslationUnit &unit, const FileEdit &file, bool inTree) {
  std::string why, run;
  if (!inTree) {
    why = "unfad rewrites only files in the directory of '" + unit.input + "' or below";
    run = "unfad -i " + file.path + " -- <flags>";
  } else {
    why = commandLine.mode == Mode::Output ? "'-o' writes only '" + unit.input + "'"
                                           : "standard output shows only '" + unit.input + "'";
    run = "unfad -i " + unit.input + " -- <flags>";
  }
  for (auto &[block, status] : file.out.status)
    if (status != "ok")
      llvm::errs() << file.path << ":" << lineOfBlock(file, block) << ":1: error: the generated block '" << block
                   << "' of a function marked in this file is " << status << ", and " << why << "; run '" << run
                   << "'\n";
}

// The files to write (or check): the inputs and the included files they
// may rewrite, by identity. False (reported) when an included file cannot be
// written in this mode or two inputs disagree on a file's blocks.
bool filesToWrite(const CommandLine &commandLine, const std::vector<TranslationUnit> &units,
                  std::vector<const FileEdit *> &out) {
  bool ok = true;
  std::map<std::string, const FileEdit *> byPath;
  for (const TranslationUnit &unit : units) {
    std::string dir(llvm::sys::path::parent_path(realPath(unit.absPath)));
    for (const FileEdit &file : unit.files) {
      if (!file.isInput && file.out.text == file.original) continue; // nothing to do there
      bool inTree = isInDirectory(file.realPath, dir);
      bool writable = file.isInput || (inTree && (commandLine.mode == Mode::InPlace || commandLine.mode == Mode::Check));
      if (!writable) {
        reportUnwritten(commandLine, unit, file, inTree);
        ok = false;
        continue;
      }
      auto [it, fresh] = byPath.emplace(file.realPath, &file);
      if (fresh) out.push_back(&file);
      else if (it->second->out.text != file.out.text) {
        llvm::errs() << file.path << ": error: the inputs that include this file generate different blocks for it; "
                     << "process them one at a time\n";
        ok = false;
      }
    }
  }
  return ok;
}

// A block whose contents no longer match its checksum was edited by hand:
// never overwritten silently.
bool reportEdited(const std::vector<const FileEdit *> &files) {
  bool edited = false;
  for (const FileEdit *file : files)
    for (auto &[name, line] : file->out.editedLines) {
      llvm::errs() << file->path << ":" << line << ":1: error: the generated block '" << name
                   << "' was edited by hand; use --force to overwrite it\n";
      edited = true;
    }
  return edited;
}

int checkFiles(const std::vector<const FileEdit *> &files) {
  bool stale = false;
  for (const FileEdit *file : files)
    for (auto &[name, status] : file->out.status)
      if (status != "ok") {
        llvm::outs() << file->path << ": '" << name << "' is " << status << "\n";
        stale = true;
      }
  return stale ? 1 : 0;
}

} // namespace

int writeResults(const CommandLine &commandLine, const std::vector<TranslationUnit> &units) {
  std::vector<const FileEdit *> files;
  if (!filesToWrite(commandLine, units, files)) return 1;
  if (commandLine.mode != Mode::Check && !commandLine.force && reportEdited(files)) return 1;
  switch (commandLine.mode) {
  case Mode::Check:
    return checkFiles(files);
  case Mode::Output:
    return writeOutput(commandLine, units.front());
  case Mode::InPlace:
    for (const FileEdit *file : files)
      if (file->out.text != file->original && !writeAtomically(file->path, file->out.text)) return 1;
    return 0;
  case Mode::Print:
    for (const TranslationUnit &unit : units) llvm::outs() << unit.files.front().out.text;
    return 0;
  case Mode::Dump:
    break; // printed by the caller, which has the programs
  }
  return 0;
}

} // namespace unfad::tool
