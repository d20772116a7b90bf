// libFuzzer harness for unfad's front end and pipeline: arbitrary bytes (and
// mutations of valid programs, from the seed corpus) are parsed as C++ with
// Clang, lowered with unfad::frontend::lowerMarkedFunctions -- as the tool
// does, and once more with lowerDespiteErrors (the path that regenerates
// stale blocks in files that do not compile) -- and, when lowering succeeds,
// run through unfad::generate (UNF, reverse mode, optimiser, printer).
//
// Expected outcomes: a Clang error, an unfad diagnostic, or generated code.
// Findings: crashes, hangs (-timeout), assertion failures, sanitizer
// reports, and internal errors (unfad::ir::IRError or any other exception
// escaping the pipeline), which abort with the message.
//
// Built only with -DUNFAD_LIBFUZZER=ON and clang++-19 (test/fuzz/CMakeLists.txt):
//   cmake -S . -B build-fuzz -G Ninja -DCMAKE_CXX_COMPILER=clang++-19 -DUNFAD_LIBFUZZER=ON
//   ninja -C build-fuzz frontend_fuzzer
//   build-fuzz/bin/frontend_fuzzer -max_total_time=300 -timeout=20 -rss_limit_mb=4096 \
//       build-fuzz/fuzz-corpus                # seeded from test/e2e/cases, test/lit/diagnostics
#include "unfad/driver/pipeline.h"
#include "unfad/frontend/frontend.h"
#include "unfad/ir/ir.h"

#include <clang/AST/ASTContext.h>
#include <clang/Basic/Diagnostic.h>
#include <clang/Frontend/ASTUnit.h>
#include <clang/Tooling/Tooling.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <vector>

#ifndef UNFAD_CLANG_RESOURCE_DIR
#define UNFAD_CLANG_RESOURCE_DIR ""
#endif
#ifndef UNFAD_INCLUDE_DIR
#define UNFAD_INCLUDE_DIR ""
#endif

namespace {

[[noreturn]] void finding(const char *what, const char *msg) {
  std::fprintf(stderr, "unfad frontend_fuzzer: %s: %s\n", what, msg);
  std::fflush(stderr);
  std::abort();
}

void pipeline(clang::ASTUnit &unit, bool despiteErrors) {
  clang::ASTContext &ctx = unit.getASTContext();
  clang::DiagnosticsEngine &diags = unit.getDiagnostics();
  if (diags.hasErrorOccurred() && !despiteErrors) return;
  unfad::ir::Program program;
  std::vector<unfad::frontend::MarkedFunction> marked;
  unfad::frontend::Options opts;
  opts.mainFileOnly = true;
  opts.lowerDespiteErrors = despiteErrors;
  try {
    if (!unfad::frontend::lowerMarkedFunctions(ctx, diags, program, &marked, opts)) return;
  } catch (const unfad::ir::IRError &e) {
    finding("IRError in the front end", e.what());
  } catch (const std::exception &e) {
    finding("exception in the front end", e.what());
  }
  try {
    std::vector<unfad::GeneratedBlock> blocks = unfad::generate(program);
    if (blocks.size() != marked.size()) finding("pipeline", "number of generated blocks != marked functions");
  } catch (const unfad::ir::IRError &e) {
    finding("IRError in the pipeline", e.what());
  } catch (const std::exception &e) {
    finding("exception in the pipeline", e.what());
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 64 * 1024) return -1; // keep single runs short
  std::string code(reinterpret_cast<const char *>(data), size);
  std::vector<std::string> args = {"-std=c++17", "-D__UNFAD__=1", "-ferror-limit=20", "-w"};
  if (std::string(UNFAD_CLANG_RESOURCE_DIR).size()) args.push_back(std::string("-resource-dir=") + UNFAD_CLANG_RESOURCE_DIR);
  if (std::string(UNFAD_INCLUDE_DIR).size()) args.push_back(std::string("-I") + UNFAD_INCLUDE_DIR);
  clang::IgnoringDiagConsumer quiet;
  std::unique_ptr<clang::ASTUnit> unit = clang::tooling::buildASTFromCodeWithArgs(
      code, args, "input.cpp", "unfad-frontend-fuzzer", std::make_shared<clang::PCHContainerOperations>(),
      clang::tooling::getClangStripDependencyFileAdjuster(), clang::tooling::FileContentMappings(), &quiet);
  if (!unit) return 0;
  pipeline(*unit, /*despiteErrors=*/false);
  if (unit->getDiagnostics().hasErrorOccurred()) pipeline(*unit, /*despiteErrors=*/true);
  return 0;
}
