// Forward mode inlines every helper: a call of a recursive helper is refused
// at the call, and nothing is written.
// RUN: not %unfad %s -- -std=c++17 -I%unfad_include 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 -I%unfad_include 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
static double power(double x, int k) {
  return k == 0 ? 1.0 : x * power(x, k - 1);
}
// CHECK: jvp_recursive.cpp:[[@LINE+1]]:39: error: cannot differentiate 'f': forward mode (UNFAD_JVP) does not support recursive calls yet ('power')
UNFAD_JVP double f(double x) { return power(x, 3); }
