// Forward mode through a rotation: the tangent of cos t needs sin t before
// the primal computes it. The primal's `s = sin(t)` moves up to the tangent
// that needs it, and each of cos t, sin t and exp is computed once.
// RUN: %unfad %s -- -std=c++17 -I%unfad_include > %t.out
// RUN: grep -v '^// *[A-Z-]*:' %t.out | FileCheck %s
#include <unfad/unfad.h>
#include <cmath>

UNFAD_JVP double rotate_x(double t, double x, double y) {
  double c = std::cos(t);
  double s = std::sin(t);
  return c * x - s * y + std::exp(c * s);
}

// CHECK:      {{^}}// unfad:begin rotate_x_jvp
// CHECK:      {{^}}  const double c = std::cos(t);
// CHECK-NEXT: {{^}}  const double s = std::sin(t);
// CHECK-NEXT: {{^}}  const double d_c = -(s * d_t);
// CHECK-NOT:  std::sin
// CHECK-NOT:  std::cos
// CHECK:      std::exp
// CHECK-NOT:  std::exp
// CHECK:      {{^}}// unfad:end rotate_x_jvp
