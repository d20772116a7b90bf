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
#include <utility>
#include <vector>

#ifndef UNFAD_CLANG_RESOURCE_DIR
#define UNFAD_CLANG_RESOURCE_DIR ""
#endif
#ifndef UNFAD_INCLUDE_DIR
#define UNFAD_INCLUDE_DIR ""
#endif

namespace {

// Small stand-ins for the standard headers unfad.h and the cases include:
// parsing the real <cmath>/<vector> costs ~1 s per input under ASan, the
// stand-ins a few ms (the same gradients come out; UNFAD_FUZZ_REAL_HEADERS=1
// uses the real headers). Other standard headers are "not found" (an error
// input like any other).
const char *const kStubDir = "/unfad-fuzz-stubs";
const std::pair<const char *, const char *> kStubs[] = {
    {"cmath", R"unfadstub(// A small stand-in for <cmath> (frontend_fuzzer: parsing the real one costs most of each run).
#pragma once
#pragma clang system_header
extern "C" {
double sin(double) noexcept;
double cos(double) noexcept;
double tan(double) noexcept;
double asin(double) noexcept;
double acos(double) noexcept;
double atan(double) noexcept;
double sinh(double) noexcept;
double cosh(double) noexcept;
double tanh(double) noexcept;
double exp(double) noexcept;
double exp2(double) noexcept;
double expm1(double) noexcept;
double log(double) noexcept;
double log2(double) noexcept;
double log10(double) noexcept;
double log1p(double) noexcept;
double sqrt(double) noexcept;
double cbrt(double) noexcept;
double fabs(double) noexcept;
double erf(double) noexcept;
double floor(double) noexcept;
double ceil(double) noexcept;
double round(double) noexcept;
double trunc(double) noexcept;
double atan2(double, double) noexcept;
double pow(double, double) noexcept;
double hypot(double, double) noexcept;
double fmin(double, double) noexcept;
double fmax(double, double) noexcept;
double fmod(double, double) noexcept;
float sinf(float) noexcept;
float cosf(float) noexcept;
float tanf(float) noexcept;
float asinf(float) noexcept;
float acosf(float) noexcept;
float atanf(float) noexcept;
float sinhf(float) noexcept;
float coshf(float) noexcept;
float tanhf(float) noexcept;
float expf(float) noexcept;
float exp2f(float) noexcept;
float expm1f(float) noexcept;
float logf(float) noexcept;
float log2f(float) noexcept;
float log10f(float) noexcept;
float log1pf(float) noexcept;
float sqrtf(float) noexcept;
float cbrtf(float) noexcept;
float fabsf(float) noexcept;
float erff(float) noexcept;
float floorf(float) noexcept;
float ceilf(float) noexcept;
float roundf(float) noexcept;
float truncf(float) noexcept;
}
namespace std {
using ::sin;
using ::cos;
using ::tan;
using ::asin;
using ::acos;
using ::atan;
using ::sinh;
using ::cosh;
using ::tanh;
using ::exp;
using ::exp2;
using ::expm1;
using ::log;
using ::log2;
using ::log10;
using ::log1p;
using ::sqrt;
using ::cbrt;
using ::fabs;
using ::erf;
using ::floor;
using ::ceil;
using ::round;
using ::trunc;
using ::atan2;
using ::pow;
using ::hypot;
using ::fmin;
using ::fmax;
using ::fmod;
inline float sin(float x) noexcept { return ::sinf(x); }
inline float cos(float x) noexcept { return ::cosf(x); }
inline float tan(float x) noexcept { return ::tanf(x); }
inline float asin(float x) noexcept { return ::asinf(x); }
inline float acos(float x) noexcept { return ::acosf(x); }
inline float atan(float x) noexcept { return ::atanf(x); }
inline float sinh(float x) noexcept { return ::sinhf(x); }
inline float cosh(float x) noexcept { return ::coshf(x); }
inline float tanh(float x) noexcept { return ::tanhf(x); }
inline float exp(float x) noexcept { return ::expf(x); }
inline float exp2(float x) noexcept { return ::exp2f(x); }
inline float expm1(float x) noexcept { return ::expm1f(x); }
inline float log(float x) noexcept { return ::logf(x); }
inline float log2(float x) noexcept { return ::log2f(x); }
inline float log10(float x) noexcept { return ::log10f(x); }
inline float log1p(float x) noexcept { return ::log1pf(x); }
inline float sqrt(float x) noexcept { return ::sqrtf(x); }
inline float cbrt(float x) noexcept { return ::cbrtf(x); }
inline float fabs(float x) noexcept { return ::fabsf(x); }
inline float erf(float x) noexcept { return ::erff(x); }
inline float floor(float x) noexcept { return ::floorf(x); }
inline float ceil(float x) noexcept { return ::ceilf(x); }
inline float round(float x) noexcept { return ::roundf(x); }
inline float trunc(float x) noexcept { return ::truncf(x); }
}
)unfadstub"},
    {"limits", R"unfadstub(#pragma once
#pragma clang system_header
namespace std {
template <class T> struct numeric_limits {
  static constexpr T infinity() noexcept { return __builtin_huge_val(); }
  static constexpr T quiet_NaN() noexcept { return __builtin_nan(""); }
  static constexpr T max() noexcept { return __DBL_MAX__; }
  static constexpr T lowest() noexcept { return -__DBL_MAX__; }
  static constexpr T epsilon() noexcept { return __DBL_EPSILON__; }
};
}
)unfadstub"},
    {"vector", R"unfadstub(#pragma once
#pragma clang system_header
namespace std {
template <class T> class vector {
public:
  using size_type = unsigned long;
  using value_type = T;
  vector() = default;
  explicit vector(size_type n, const T &v = T()) : p_(new T[n]), n_(n) { for (size_type i = 0; i < n; ++i) p_[i] = v; }
  size_type size() const { return n_; }
  T &operator[](size_type i) { return p_[i]; }
  const T &operator[](size_type i) const { return p_[i]; }
  T *data() { return p_; }
  const T *data() const { return p_; }
private:
  T *p_ = nullptr;
  size_type n_ = 0;
};
}
)unfadstub"},
    {"array", R"unfadstub(#pragma once
#pragma clang system_header
namespace std {
template <class T, unsigned long N> struct array {
  T elems[N];
  constexpr unsigned long size() const { return N; }
  T &operator[](unsigned long i) { return elems[i]; }
  const T &operator[](unsigned long i) const { return elems[i]; }
};
}
)unfadstub"},
};

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
  static const bool realHeaders = std::getenv("UNFAD_FUZZ_REAL_HEADERS") != nullptr;
  clang::tooling::FileContentMappings files;
  if (!realHeaders) {
    args.push_back("-nostdinc++");
    args.push_back(std::string("-isystem") + kStubDir);
    for (const auto &[name, text] : kStubs) files.emplace_back(std::string(kStubDir) + "/" + name, text);
  }
  clang::IgnoringDiagConsumer quiet;
  std::unique_ptr<clang::ASTUnit> unit = clang::tooling::buildASTFromCodeWithArgs(
      code, args, "input.cpp", "unfad-frontend-fuzzer", std::make_shared<clang::PCHContainerOperations>(),
      clang::tooling::getClangStripDependencyFileAdjuster(), files, &quiet);
  if (!unit) return 0;
  pipeline(*unit, /*despiteErrors=*/false);
  if (unit->getDiagnostics().hasErrorOccurred()) pipeline(*unit, /*despiteErrors=*/true);
  return 0;
}
