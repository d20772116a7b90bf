// a return inside a 'do' loop: an error at the construct, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
UNFAD_GRADIENT double f(double x) {
  double s = x;
  do {
    s *= 2;
// CHECK: loop_do.cpp:[[@LINE+1]]:16: error: cannot differentiate 'f': 'return' inside a loop is not supported yet
    if (s > 5) return s;
  } while (s < 10);
  return s;
}
