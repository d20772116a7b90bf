// x4 is used twice (CHAD Fig. 1): one accumulation into *d_x4 per adjoint,
// no lambda, and x4's derivative is the sum of both uses.
// RUN: %unfad %s -- -std=c++17 -I%unfad_include > %t.out
// RUN: grep -v '^// *[A-Z-]*:' %t.out | FileCheck %s
#include <unfad/unfad.h>

#include <cmath>

UNFAD_GRADIENT double chad(double x1, double x2, double x3, double x4) {
  const double y = x1 * x4 + 2 * x2;
  const double z = y * x3;
  const double w = z + x4;
  return std::sin(w);
}

// CHECK:     {{^}}// unfad:begin chad_grad
// CHECK-NEXT: {{^}}double chad_grad(double x1, double x2, double x3, double x4, double* d_x1, double* d_x2, double* d_x3, double* d_x4) {
// CHECK-NOT: {{\[&\]|\[=\]|std::function}}
// CHECK:     cos(
// CHECK-NOT: {{\[&\]|\[=\]|std::function}}
// CHECK:     {{^}}// unfad:end chad_grad
