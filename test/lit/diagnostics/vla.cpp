// a variable-length array: an error at the construct, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
UNFAD_GRADIENT double f(double x, int n) {
// CHECK: vla.cpp:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate 'f': {{.*}}not supported
  double a[n];
  a[0] = x;
  return a[0];
}
