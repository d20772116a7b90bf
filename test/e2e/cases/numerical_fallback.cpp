// --numerical-fallback: a function whose body unfad cannot see (a library
// function: unfad parses this file with __UNFAD__ defined) is
// differentiated by central differences, per active scalar argument, with a
// warning at each call. The harness compares the result with its own finite
// differences of the whole function, so the tolerance is a finite
// difference's.
#include <unfad/unfad.h>

#include <cmath>

double damped_wave(double t, double k, int harmonic);
#ifndef __UNFAD__
double damped_wave(double t, double k, int harmonic) { return std::exp(-k * t) * std::cos(harmonic * t); }
#endif

UNFAD_GRADIENT double wave_fit(double a, double k, const double* ts, const double* ys, int n) {
  double s = 0.0;
  for (int i = 0; i < n; ++i) {
    const double r = a * damped_wave(ts[i], k, 3) - ys[i];
    s += r * r;
  }
  return s;
}

// A float argument among doubles, and a passive call (an integer argument
// only, no derivative needed).
double mixed(float scale, double x);
#ifndef __UNFAD__
double mixed(float scale, double x) { return scale * std::tanh(x) + 0.1 * x * x; }
#endif

UNFAD_GRADIENT double mixed_sum(double x, double y) { return mixed(2.5f, x * y) + x * damped_wave(1.0, 0.5, 2); }

/* e2e
[{"function": "wave_fit", "unfad_flags": ["--numerical-fallback"], "rtol": 1e-5,
  "points": [[1.5, 0.3, [0.0, 0.5, 1.0, 2.0], [1.0, 0.2, -0.5, 0.1], 4],
             [-0.75, 1.2, [0.25, 3.0, 10.0], [0.5, -0.25, 0.0], 3]],
  "value_formula": "sum((a*exp(-k*ts[i])*cos(3*ts[i]) - ys[i])**2 for i in range(n))"},
 {"function": "mixed_sum", "rtol": 1e-5,
  "points": [[0.5, 2.0], [-1.25, 0.75]],
  "value_formula": "2.5*tanh(x*y) + 0.1*(x*y)**2 + x*exp(-0.5)*cos(2.0)"}]
*/
