// a 'switch' is supported, but not a case label inside a nested statement of
// its body (Duff's device): an error at the label, non-zero exit, and a
// failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
UNFAD_GRADIENT double f(double x, int k) {
  double r = x;
  switch (k) {
  case 0:
    if (x > 0) {
// CHECK: switch_stmt.cpp:[[@LINE+1]]:5: error: cannot differentiate 'f': a case label inside a nested statement of a 'switch' is not supported
    case 1:
      r *= x;
    }
    break;
  default:
    r = 2 * x;
  }
  return r;
}
