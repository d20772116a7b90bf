// a helper returning a std::vector (an array by value): an error at the construct, non-zero exit, and a failed -i leaves the file byte-identical.
// (Helpers returning a pointer into an argument are supported: e2e pointer_returning_helpers.)
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
#include <vector>
static std::vector<double> twice(const std::vector<double> &x) { return {2 * x[0], 2 * x[1]}; }
UNFAD_GRADIENT double f(const std::vector<double> &x) {
// CHECK: array_returning_helper.cpp:[[@LINE+1]]:10: error: cannot differentiate 'f': 'twice' returns an array or a pointer, which is not supported (write into an output parameter instead)
  return twice(x)[0];
}
