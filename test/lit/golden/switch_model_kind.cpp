// A `switch` over a model kind: an `if` chain over the case labels (the
// variables the cases assign joined once), the code after it generated once,
// and the reverse sweep branching on the same labels. The enum parameter is
// read as a long (a scoped enum does not compare with integers).
// RUN: %unfad %s -- -std=c++17 > %t.out
// RUN: grep -v '^// *[A-Z-]*:' %t.out | FileCheck %s
#include <unfad/unfad.h>

#include <cmath>

enum Model { Linear, Quadratic, Exponential, Constant };

UNFAD_GRADIENT double predict(double a, double t, Model kind) {
  double y = 0.0;
  switch (kind) {
  case Linear:
    y = a * t;
    break;
  case Quadratic:
    y = a * t * t;
    break;
  case Exponential:
    y = std::exp(a * t);
    break;
  default:
    y = a;
  }
  return y * y;
}

// CHECK:      {{^}}double predict_grad(double a, double t, Model kind, double* d_a, double* d_t) {
// CHECK-NEXT:   const bool c = static_cast<long>(kind) == 0;
// CHECK-NEXT:   double [[Y:y_[0-9_]+]];
// CHECK-NEXT:   if (c) {
// CHECK-NEXT:     [[Y]] = a * t;
// CHECK-NEXT:   } else {
// CHECK-NEXT:     const bool c_1 = static_cast<long>(kind) == 1;
// CHECK:            = a * t * t;
// CHECK:          const bool c_2 = static_cast<long>(kind) == 2;
// CHECK:            = std::exp(a * t);
// CHECK:            = a;
// The code after the switch, once:
// CHECK:        const double result = [[Y]] * [[Y]];
// CHECK-NOT:    [[Y]] * [[Y]]
// CHECK:        const double [[D:d_y_[0-9_]+]] = 2.0 * [[Y]];
// CHECK:        if (c) {
// CHECK:        *d_a +=
// CHECK-NEXT:   *d_t +=
// CHECK-NEXT:   return result;
// CHECK-NEXT: }
