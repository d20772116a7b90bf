// A registered pullback (UNFAD_CUSTOM_GRADIENT) is no pushforward: forward
// mode refuses the call, located.
// RUN: not %unfad %s -- -std=c++17 -I%unfad_include 2>&1 | FileCheck %s
#include <unfad/unfad.h>
#include <cmath>
double log1pexp(double x);
void log1pexp_pullback(double x, double d_result, double* d_x) { *d_x += d_result / (1.0 + std::exp(-x)); }
UNFAD_CUSTOM_GRADIENT(log1pexp, log1pexp_pullback);
UNFAD_JVP double f(double x) {
// CHECK: jvp_custom_gradient.cpp:[[@LINE+1]]:10: error: cannot differentiate 'f': forward mode (UNFAD_JVP) cannot use the registered derivative of 'log1pexp'
  return log1pexp(x) * x;
}
