// unfad-opt: runs the optimiser's passes on IR read from a file, for
// testing one pass at a time (test/lit/opt/) and for looking at what a
// pass does:
//
//   unfad-opt [--pass=NAME | --passes=a,b,c] [--format=text|json]
//             [--list-passes] [input.json | -]
//
// The input is a Program in the JSON form `unfad --dump=reverse
// --dump-format=json` prints. With no pass named, the whole pipeline runs
// (what unfad does). Uses LLVM's Support library only: no Clang.
#include "unfad/ir/json.h"
#include "unfad/ir/large_stack.h"
#include "unfad/opt/optimize.h"
#include "unfad/opt/passes.h"

#include <llvm/Support/CommandLine.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>

#include <string>
#include <vector>

namespace {

llvm::cl::OptionCategory gCategory("unfad-opt options");

llvm::cl::opt<std::string> gInput(llvm::cl::Positional, llvm::cl::desc("<input.json | ->"), llvm::cl::init("-"),
                                  llvm::cl::cat(gCategory));
llvm::cl::opt<std::string> gPass("pass", llvm::cl::desc("Run only this pass (see --list-passes)"),
                                 llvm::cl::value_desc("name"), llvm::cl::cat(gCategory));
llvm::cl::list<std::string> gPasses("passes", llvm::cl::desc("Run these passes, in this order"),
                                    llvm::cl::value_desc("a,b,c"), llvm::cl::CommaSeparated, llvm::cl::cat(gCategory));
enum class Format { Text, Json };
llvm::cl::opt<Format> gFormat("format", llvm::cl::desc("Output form"), llvm::cl::init(Format::Text),
                              llvm::cl::values(clEnumValN(Format::Text, "text", "the IR's text form (ir::print)"),
                                               clEnumValN(Format::Json, "json", "the IR's JSON form")),
                              llvm::cl::cat(gCategory));
llvm::cl::opt<bool> gListPasses("list-passes", llvm::cl::desc("Print the pass names in pipeline order and exit"),
                                llvm::cl::cat(gCategory));

int fail(const std::string &message) {
  llvm::errs() << "unfad-opt: error: " << message << "\n";
  return 1;
}

// The passes the command line asks for; empty for the whole pipeline.
bool selectedPasses(std::vector<std::string> &names, std::string &error) {
  if (!gPass.empty() && !gPasses.empty()) {
    error = "--pass and --passes exclude each other";
    return false;
  }
  if (!gPass.empty()) names.push_back(gPass);
  names.insert(names.end(), gPasses.begin(), gPasses.end());
  for (auto &n : names)
    if (!unfad::opt::findPass(n)) {
      error = "unknown pass '" + n + "' (--list-passes lists them)";
      return false;
    }
  return true;
}

unfad::ir::Program runPasses(const unfad::ir::Program &input, const std::vector<std::string> &names) {
  if (names.empty()) return unfad::opt::optimize(input);
  unfad::ir::Program out = input;
  unfad::opt::PassContext callees;
  unfad::opt::noteValueAndPullbacks(input, callees);
  for (auto &f : out.functions) {
    unfad::opt::PassContext context = unfad::opt::contextFor(f, callees);
    for (auto &n : names) f.body = unfad::opt::findPass(n)(f.body, context, nullptr);
  }
  return out;
}

} // namespace

int main(int argc, char **argv) {
  llvm::cl::HideUnrelatedOptions(gCategory);
  llvm::cl::ParseCommandLineOptions(argc, argv, "unfad-opt: runs unfad's optimiser passes on IR\n");
  if (gListPasses) {
    for (auto &n : unfad::opt::passNames()) llvm::outs() << n << "\n";
    return 0;
  }
  std::vector<std::string> names;
  std::string error;
  if (!selectedPasses(names, error)) return fail(error);
  auto buffer = llvm::MemoryBuffer::getFileOrSTDIN(gInput);
  if (!buffer) return fail("cannot read " + gInput + ": " + buffer.getError().message());
  try {
    auto json = nlohmann::json::parse((*buffer)->getBuffer().begin(), (*buffer)->getBuffer().end());
    unfad::ir::Program input = unfad::ir::programFromJson(json);
    std::string out = unfad::ir::onLargeStack<std::string>([&] {
      unfad::ir::Program result = runPasses(input, names);
      return gFormat == Format::Json ? unfad::ir::toJson(result).dump(2) + "\n" : unfad::ir::print(result);
    });
    llvm::outs() << out;
  } catch (const nlohmann::json::exception &e) {
    return fail(gInput + ": not IR in JSON form: " + e.what());
  } catch (const std::exception &e) {
    return fail(e.what());
  }
  return 0;
}
