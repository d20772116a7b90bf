// A registered pullback with the wrong number of parameters (here without
// the result's cotangent): the error says what unfad expects.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
#include <unfad/unfad.h>

double scale(double a, double b);
void scale_pullback(double a, double b, double* d_a, double* d_b);
// CHECK: custom_gradient_arity.cpp:[[@LINE+1]]:1: error: cannot differentiate 'f': the custom gradient of 'scale' has a pullback taking 4 parameters, expected 5: 'void scale_pullback(double a, double b, double d_result, double *d_a, double *d_b)'
UNFAD_CUSTOM_GRADIENT(scale, scale_pullback);

UNFAD_GRADIENT double f(double x) { return scale(x, 2.0) * x; }
