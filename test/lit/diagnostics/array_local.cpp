// a multi-dimensional local array: an error at the construct, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
UNFAD_GRADIENT double f(double x) {
// CHECK: array_local.cpp:[[@LINE+1]]:10: error: cannot differentiate 'f': multi-dimensional arrays are not supported yet (use a flat array and 'a[i * n + j]')
  double a[2][2] = {{x, x}, {x, x}};
  return a[0][0] + a[1][1];
}
