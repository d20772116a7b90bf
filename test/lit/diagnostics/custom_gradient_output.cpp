// Functions with a registered derivative may write arrays of floating-point
// values (outputs, in/out with UNFAD_INOUT); other written parameters are
// refused at the call: a written scalar reference, a written int array, and
// a void function that writes nothing has no value to differentiate.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
#include <unfad/unfad.h>

double split(double a, double& rest);
void split_pullback(double a, double& rest, double d_result, double* d_a, double* d_rest);
UNFAD_CUSTOM_GRADIENT(split, split_pullback);

UNFAD_GRADIENT double f(double x) {
  double r = 0.0;
// CHECK: custom_gradient_output.cpp:[[@LINE+1]]:10: error: cannot differentiate 'f': 'split' may write through its parameter 'rest' ('double &'): a custom gradient takes written parameters that are arrays of floating-point values ('double* out', 'std::vector<double>& out')
  return split(x, r) + r;
}

void count(double a, int* n);
void count_pullback(double a, int* n, double* d_a);
UNFAD_CUSTOM_GRADIENT(count, count_pullback);

UNFAD_GRADIENT double g(double x) {
  int k = 0;
// CHECK: custom_gradient_output.cpp:[[@LINE+1]]:3: error: cannot differentiate 'g': 'count' may write through its parameter 'n' ('int *'): a custom gradient takes written parameters that are arrays of floating-point values ('double* out', 'std::vector<double>& out')
  count(x, &k);
  return x * k;
}

void observe(double a);
void observe_pullback(double a, double* d_a);
UNFAD_CUSTOM_GRADIENT(observe, observe_pullback);

UNFAD_GRADIENT double h(double x) {
// CHECK: custom_gradient_output.cpp:[[@LINE+1]]:3: error: cannot differentiate 'h': 'observe' returns 'void' and writes no array parameter: it has no value to differentiate
  observe(x);
  return x * x;
}

