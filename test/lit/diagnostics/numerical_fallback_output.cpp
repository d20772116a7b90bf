// --numerical-fallback takes functions of inputs only: one that may write
// through a parameter is refused at the call (a registered derivative,
// UNFAD_CUSTOM_GRADIENT, may write arrays).
// RUN: not %unfad --numerical-fallback %s -- -std=c++17 2>&1 | FileCheck %s
#include <unfad/unfad.h>

double split(double a, double* rest);
UNFAD_GRADIENT double f(double x) {
  double r[1] = {0.0};
// CHECK: numerical_fallback_output.cpp:[[@LINE+1]]:10: error: cannot differentiate 'f': 'split' may write through its parameter 'rest': a numerical derivative supports only inputs (values, const pointers and const references)
  return split(x, r) + r[0];
}
