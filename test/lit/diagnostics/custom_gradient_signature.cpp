// A registered pullback whose parameter types do not fit: the error is at
// the registration and spells the signature unfad expects.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
#include <unfad/unfad.h>

double soft(double a, const double* x, int n);
void soft_pullback(double a, const double* x, int n, double d_result, double* d_a, const double* d_x);
// CHECK: custom_gradient_signature.cpp:[[@LINE+1]]:1: error: cannot differentiate 'f': the custom gradient of 'soft' has a pullback whose parameter 6 is 'const double *', not 'double *': expected 'void soft_pullback(double a, const double *x, int n, double d_result, double *d_a, double *d_x)'
UNFAD_CUSTOM_GRADIENT(soft, soft_pullback);

UNFAD_GRADIENT double f(double a, const double* x) { return soft(a, x, 3); }
