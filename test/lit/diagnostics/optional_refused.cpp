// std::optional of a number is supported as a local, a helper's parameter
// and result (e2e/cases/optionals.cpp). Refused, located, with nothing
// written: an optional parameter of the marked function, a std::vector of
// optionals, swap(), and ordering comparisons of optionals.
// RUN: not %unfad %s -- -std=c++17 -I%unfad_include 2>&1 | FileCheck %s
#include <unfad/unfad.h>
#include <optional>
#include <vector>

// CHECK: optional_refused.cpp:[[@LINE+1]]:61: error: cannot differentiate 'param': a std::optional parameter of the marked function is not supported (pass the value, and whether it is there, as two parameters)
UNFAD_GRADIENT double param(double x, std::optional<double> scale) { return x * scale.value_or(1.0); }

UNFAD_GRADIENT double listed(double x) {
// CHECK: optional_refused.cpp:[[@LINE+1]]:38: error: cannot differentiate 'listed': std::vectors of std::optional are not supported
  std::vector<std::optional<double>> v(3);
  v[0] = x;
  return *v[0];
}

UNFAD_GRADIENT double cleared(double x) {
  std::optional<double> o = x, p;
// CHECK: optional_refused.cpp:[[@LINE+1]]:5: error: cannot differentiate 'cleared': 'swap' of std::optional is not supported here (has_value, value, value_or, *, comparisons with std::nullopt, assignment, and reset() and emplace(v) as statements are)
  o.swap(p);
  return o.value_or(x * x);
}

UNFAD_GRADIENT double ordered(double x, double y) {
  std::optional<double> a = x, b = y;
// CHECK: optional_refused.cpp:[[@LINE+1]]:12: error: cannot differentiate 'ordered': operator '<' on std::optional is not supported (compare the values, `*a < *b`, after testing them)
  return a < b ? x : y;
}

// CHECK-NOT: unfad:begin
