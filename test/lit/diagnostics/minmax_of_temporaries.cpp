// std::minmax of a temporary kept in a variable (its references outlive the temporary: undefined behavior in C++): an error at the argument, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
#include <algorithm>
UNFAD_GRADIENT double f(double a, double b) {
// CHECK: minmax_of_temporaries.cpp:[[@LINE+1]]:37: error: cannot differentiate 'f': 'std::minmax' of a temporary keeps a reference to it past its end (undefined behavior): give it variables, or use 'std::minmax({a, b})', which returns values
  const auto [lo, hi] = std::minmax(a * b, b);
  return hi - lo;
}
