// A function with a registered derivative that writes through a parameter
// (an output): refused at the call, for now.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
#include <unfad/unfad.h>

double split(double a, double* rest);
void split_pullback(double a, double* rest, double d_result, double* d_a);
UNFAD_CUSTOM_GRADIENT(split, split_pullback);

UNFAD_GRADIENT double f(double x) {
  double r = 0.0;
// CHECK: custom_gradient_output.cpp:[[@LINE+1]]:10: error: cannot differentiate 'f': 'split' may write through its parameter 'rest': a derivative of it (UNFAD_CUSTOM_GRADIENT) supports only inputs (values, const pointers and const references)
  return split(x, &r) + r;
}
