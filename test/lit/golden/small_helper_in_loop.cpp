// A small loop-free helper called in a loop (a sigmoid per element) is
// inlined at that call (lib/inline: inlineSmallHelpers): the loop's sweep
// then reuses the forward's exp for the derivative, one exp per element, and
// no pullback is generated for the helper. (Called outside loops, a helper
// stays a call to its pullback: golden/helper_once.cpp.)
// RUN: %unfad %s -- -std=c++17 -I%unfad_include > %t.out
// RUN: grep -v '^// *[A-Z-]*:' %t.out | FileCheck %s
#include <unfad/unfad.h>
#include <cmath>
static double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }
UNFAD_GRADIENT double gates(const double* w, const double* x, int n) {
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += sigmoid(w[i] * x[i]);
  return s;
}
// CHECK-NOT:   sigmoid_pullback
// CHECK-LABEL: double gates_grad(const double* w, const double* x, int n, double* d_w, double* d_x) {
// CHECK:         for (long i = 0; i < n; ++i) {
// CHECK:           const double [[E:t_[0-9]+]] = std::exp(-
// CHECK-NOT:       std::exp(
// CHECK:           d_x[i] +=
// CHECK-NEXT:      d_w[i] +=
// CHECK-NEXT:    }
// CHECK-NEXT:    return {{s[_0-9]*}};
