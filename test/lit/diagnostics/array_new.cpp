// 'malloc' of a buffer ('new T[n]' is supported): an error at the construct, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
#include <cstdlib>
UNFAD_GRADIENT double f(double x, int n) {
// CHECK: array_new.cpp:[[@LINE+1]]:37: error: cannot differentiate 'f': 'malloc' is not supported (use 'new T[n]' or a local 'std::vector<double> v(n)')
  double *p = static_cast<double *>(malloc(sizeof(double) * n));
  p[0] = x;
  return p[0];
}
