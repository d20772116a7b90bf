// a reference bound to what a function returns by reference: an error at the initialiser, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
static double &larger(double *v, int i, int j) { return v[i] > v[j] ? v[i] : v[j]; }
UNFAD_GRADIENT double f(const double *x) {
  double v[2] = {x[0], x[1]};
// CHECK: reference_to_returned.cpp:[[@LINE+1]]:15: error: cannot differentiate 'f': a reference to what a function returns is not supported ('m'; only references to local variables, to array elements and to their fields are)
  double &m = larger(v, 0, 1);
  m *= 2.0;
  return v[0] * v[1];
}
