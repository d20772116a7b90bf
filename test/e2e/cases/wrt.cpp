// UNFAD_GRADIENT_WRT restricts the active parameters: one adjoint per named
// parameter, in parameter order.
#include <unfad/unfad.h>

#include <cmath>

UNFAD_GRADIENT_WRT(x) double wrt_one(double x, double y, double k) {
  return k * std::sin(x * y) + x * x;
}

UNFAD_GRADIENT_WRT(x, k) double wrt_two(double x, double y, double k) {
  return k * std::sin(x * y) + y * y * x;
}

/* e2e
[{"function": "wrt_one",
  "points": [[0.5, 1.25, 2.0], [-1.5, 0.75, -0.5]],
  "grad_formula": ["k*y*cos(x*y) + 2*x"]},
 {"function": "wrt_two",
  "points": [[0.5, 1.25, 2.0], [-1.5, 0.75, -0.5]],
  "grad_formula": ["k*y*cos(x*y) + y*y", "sin(x*y)"]}]
*/
