// a marked function returning void that writes no output: an error at the construct, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
// CHECK: array_void_no_output.cpp:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate 'f': return type 'void' is not floating-point, and the function writes no floating-point output parameter
UNFAD_GRADIENT void f(const double *x, int *count, int n) {
  for (int i = 0; i < n; ++i) count[i] = x[i] > 0;
}
