// Forward mode of a void function advancing a state in place (explicit
// Euler steps of a damped oscillator, a scratch derivative buffer per step)
// with a passive parameter left out by UNFAD_JVP_WRT: the tangent buffer of
// the in/out state enters as the tangent of its initial value and leaves as
// that of its final value.
#include <unfad/unfad.h>

#include <cmath>

static void rhs(const double* y, double damping, double stiffness, double* dy) {
  dy[0] = y[1];
  dy[1] = -stiffness * std::sin(y[0]) - damping * y[1];
}

UNFAD_JVP_WRT(y, damping)
void inout_void(double* y, double damping, double stiffness, int steps) {
  const double h = 0.05;
  for (int s = 0; s < steps; ++s) {
    double dy[2];
    rhs(y, damping, stiffness, dy);
    for (int i = 0; i < 2; ++i) y[i] += h * dy[i];
  }
}

UNFAD_GRADIENT_WRT(y, damping)
void inout_void_rev(double* y, double damping, double stiffness, int steps) { inout_void(y, damping, stiffness, steps); }

/* jvp
{"function": "inout_void", "gradient": "inout_void_rev",
 "params": [["y", "inout", 2], ["damping", "scalar"], ["stiffness", "passive"], ["steps", "int"]],
 "points": [[[0.5, -0.2], 0.3, 2.0, 20], [[-1.0, 0.7], 0.05, 4.0, 7]]}
*/
