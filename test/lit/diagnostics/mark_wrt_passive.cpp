// UNFAD_GRADIENT_WRT naming an integer: an error at the construct, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
UNFAD_GRADIENT_WRT(n) double f(double x,
// CHECK: mark_wrt_passive.cpp:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate 'f': parameter 'n' named in 'UNFAD_GRADIENT_WRT' is not floating-point
                               int n) {
  return x * n;
}
