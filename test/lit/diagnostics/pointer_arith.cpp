// a pointer into one of two arrays depending on a condition (views into one array are supported): an error at the construct, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
UNFAD_GRADIENT double f(double x, const double *p, const double *r) {
// CHECK: pointer_arith.cpp:[[@LINE+1]]:21: error: cannot differentiate 'f': a pointer into different arrays on different paths is not supported (index each array instead)
  const double *q = x > 0 ? p + 1 : r;
  return *q * x;
}
