// a return inside a loop in a helper, reported for the marked function: an error at the construct, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
static double first_positive(const double *x, int n) {
  for (int i = 0; i < n; ++i)
    if (x[i] > 0) return x[i]; // CHECK: helper_loop.cpp:[[@LINE]]:19: error: cannot differentiate 'f': 'return' inside a loop is not supported yet
  return 0;
}
UNFAD_GRADIENT double f(const double *x, int n) {
  return first_positive(x, n) * x[0];
}
