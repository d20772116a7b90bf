// A damped, driven oscillator x'' = -k x - c x' + sin(t), integrated with the
// explicit midpoint rule at a fixed step while (t < T). The loss is the energy
// at the end. T = 1.05 with dt = 0.1 takes 11 steps, and stays at 11 steps
// under the finite-difference perturbations of T and dt. (At T = 2.25, 23
// steps, the 4-point stencil's truncation error on d/d(dt) reaches 6e-7;
// smaller steps converge to unfad's value, 0.127557711.)
#include <unfad/unfad.h>

#include <cmath>

UNFAD_GRADIENT double oscillator_energy(double x0, double v0, double k, double c, double T, double dt) {
  double x = x0;
  double v = v0;
  double t = 0.0;
  while (t < T) {
    const double ax = -k * x - c * v + std::sin(t);
    const double xm = x + 0.5 * dt * v;
    const double vm = v + 0.5 * dt * ax;
    const double am = -k * xm - c * vm + std::sin(t + 0.5 * dt);
    x += dt * vm;
    v += dt * am;
    t += dt;
  }
  return 0.5 * k * x * x + 0.5 * v * v;
}

// Explicit Euler on the logistic equation y' = r y (1 - y / K), a counted
// while loop (step counter).
UNFAD_GRADIENT double logistic_euler(double y0, double r, double K, int steps) {
  const double h = 0.05;
  double y = y0;
  int i = 0;
  while (i < steps) {
    y = y + h * r * y * (1.0 - y / K);
    ++i;
  }
  return y;
}

/* e2e
[{"function": "oscillator_energy",
  "points": [[1.0, 0.0, 2.0, 0.3, 1.05, 0.1],
             [-0.5, 0.8, 1.5, 0.1, 1.25, 0.1],
             [0.3, -0.2, 4.0, 0.5, 0.33, 0.05]]},
 {"function": "logistic_euler",
  "points": [[0.1, 1.5, 2.0, 20], [1.2, 0.8, 1.5, 7], [0.5, 2.0, 1.0, 0]]}]
*/
