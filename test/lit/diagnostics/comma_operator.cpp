// the comma operator: an error at the construct, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
UNFAD_GRADIENT double f(double x) {
  double y = 0;
// CHECK: comma_operator.cpp:[[@LINE+1]]:13: error: cannot differentiate 'f': the comma operator is not supported
  y = (y = x, 2 * x);
  return y;
}
