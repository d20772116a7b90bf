// A helper whose result is dead, and one whose result is scaled by zero:
// the optimised gradient calls neither pullback, so neither is emitted (the
// helper scaled by zero is still called for its value).
// RUN: %unfad %s -- -std=c++17 -I%unfad_include > %t.out
// RUN: grep -v '^// *[A-Z-]*:' %t.out | FileCheck %s
#include <unfad/unfad.h>

#include <cmath>

static double wave(double x) { return std::sin(x) * x; }
static double square(double x) { return x * x; }

UNFAD_GRADIENT double f(double x, double y) {
  const double unused = wave(x);
  const double scaled = 0.0 * square(y);
  return x * y + scaled;
}
// CHECK:       // unfad:begin f_grad
// CHECK-NOT:   pullback
// CHECK:       double f_grad(double x, double y, double* d_x, double* d_y) {
// CHECK-NOT:   pullback
// CHECK:       // unfad:end f_grad
