// A `switch` over a model kind: an `if` chain over the case labels (the
// variables the cases assign joined once), the code after it generated once,
// and the reverse sweep branching on the same labels.
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
