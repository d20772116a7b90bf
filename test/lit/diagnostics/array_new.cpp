// 'new' of an array: an error at the construct, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
UNFAD_GRADIENT double f(double x, int n) {
// CHECK: array_new.cpp:[[@LINE+1]]:15: error: cannot differentiate 'f': dynamic allocation is not supported (use a local 'std::vector<double> v(n)')
  double *p = new double[n];
  p[0] = x;
  return p[0];
}
