// `const double& m = std::max(a, b)` designates the argument chosen when it
// is bound, even when that argument changes afterwards (returned_references.cpp);
// with a comparator it is refused when an argument changes (m may change
// with it): an error at the reference, nothing written.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>

#include <algorithm>
#include <functional>

UNFAD_GRADIENT double f(double a, double b) {
// CHECK: reference_to_changed_result.cpp:[[@LINE+1]]:21: error: cannot differentiate 'f': a reference to what a function returns is not supported ('m'
  const double& m = std::max(a, b, std::greater<double>());
  a = 3.0 * a;
  return m * a;
}
