// a return inside a 'for' loop: an error at the construct, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
UNFAD_GRADIENT double f(double x) {
  double s = 0;
  for (int i = 0; i < 3; ++i) {
    s += x;
// CHECK: loop_for.cpp:[[@LINE+1]]:16: error: cannot differentiate 'f': 'return' inside a loop is not supported yet
    if (s > 2) return s;
  }
  return s;
}
