// a recursive helper with a non-const reference parameter (such helpers are lowered into their callers): an error at the recursive call, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
static void powers(double &acc, double x, int k) {
  if (k == 0) return;
  acc *= x;
// CHECK: reference_param_recursive.cpp:[[@LINE+1]]:3: error: cannot differentiate 'f': recursive calls of a function with a non-const reference parameter are not supported ('powers')
  powers(acc, x, k - 1);
}
UNFAD_GRADIENT double f(double x) {
  double p = 1.0;
  powers(p, x, 3);
  return p;
}
