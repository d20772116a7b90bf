// UNFAD_GRADIENT_WRT naming a parameter twice: an error at the construct, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
// CHECK: mark_wrt_duplicate.cpp:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate 'f': 'UNFAD_GRADIENT_WRT' names 'x' twice
UNFAD_GRADIENT_WRT(x, x) double f(double x, double y) {
  return x * y;
}
