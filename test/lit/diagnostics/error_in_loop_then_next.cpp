// an error inside a loop, then another marked function: the error is reported once, at the
// construct, and the next function is lowered from a clean state (no crash, no internal error).
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s --implicit-check-not=error
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>

UNFAD_GRADIENT double bad(const double* x, int n) {
  double s = 0.0;
// CHECK: error_in_loop_then_next.cpp:[[@LINE+1]]:46: error: cannot differentiate 'bad': pointers to this variable are not supported ('&x'
  for (int i = 0; i < n; ++i) s += x[i] * **(&x);
  return s;
}

UNFAD_GRADIENT double early(double a) {
  double acc = 0.0;
  for (int k = 0; k < 2; ++k) {
    if (acc > 1.0) break;
    acc += a;
  }
  return acc;
}

UNFAD_GRADIENT double counted(double a) {
  int k = 0;
  double acc = 0.0;
  do {
    acc += a;
    ++k;
  } while (k < 2);
  return acc;
}
