// a reference bound to what a function returns by reference, where that is
// one of two variables (chosen at run time): an error at the return,
// non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
// CHECK: reference_to_returned.cpp:[[@LINE+1]]:54: error: cannot differentiate 'f': 'larger' returns references to different objects on different paths
static double &larger(double &a, double &b) { return a > b ? a : b; }
UNFAD_GRADIENT double f(double x, double y) {
  double a = x, b = y;
  double &m = larger(a, b);
  m *= 2.0;
  return a * b;
}
