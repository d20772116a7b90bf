// a call that writes through a reference parameter inside a conditional operand: an error at the call, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
static double bump(double &acc, double v) {
  acc += v;
  return acc;
}
UNFAD_GRADIENT double f(double x, double y) {
  double s = 0.0;
// CHECK: reference_param_conditional.cpp:[[@LINE+1]]:26: error: cannot differentiate 'f': a call that writes through a reference parameter inside a branch of '?:' is not supported (use a separate statement)
  double t = x > y ? x : bump(s, y);
  return s + t;
}
