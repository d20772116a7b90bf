// A marked function with a scalar output reference (`double& out`): its
// adjoint is `double* d_out`, carrying the output's cotangent in, like a
// pointer output's. Written directly, through a reference local, through
// a helper's reference parameter, and next to an array output.
#include <unfad/unfad.h>

#include <cmath>

static void accumulate(double& acc, double v) { acc += v * v; }

UNFAD_GRADIENT void norm2(const double* x, int n, double& out) {
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += x[i] * x[i];
  out = std::sqrt(s);
}

UNFAD_GRADIENT void sum_of_squares(const double* x, int n, double& out) {
  out = 0.0;
  for (int i = 0; i < n; ++i) accumulate(out, x[i]);
}

UNFAD_GRADIENT double stats(const double* x, int n, double& mean, double* centered) {
  double& m = mean;
  m = 0.0;
  for (int i = 0; i < n; ++i) m += x[i] / n;
  double var = 0.0;
  for (int i = 0; i < n; ++i) {
    const double c = x[i] - mean;
    centered[i] = c;
    var += c * c;
  }
  return var / n;
}

UNFAD_GRADIENT double scaled(double x, double& y) { return x * y * y; }

/* e2e
[{"function": "norm2",
  "points": [[[0.5, -1.0, 2.0], 3], [[3.0, 4.0], 2]],
  "outputs": {"out": 1},
  "grad_formula": ["[w_out[0] * v / sqrt(sum(u*u for u in x)) for v in x]"]},
 {"function": "sum_of_squares",
  "points": [[[0.5, -1.0, 2.0], 3]],
  "outputs": {"out": 1},
  "grad_formula": ["[2 * w_out[0] * v for v in x]"]},
 {"function": "stats",
  "points": [[[0.5, -1.0, 2.0, 0.25], 4]],
  "outputs": {"mean": 1, "centered": 4}},
 {"function": "scaled",
  "points": [[2.0, [3.0]], [-0.5, [1.25]]],
  "grad_formula": ["y[0] * y[0]", "[2 * x * y[0]]"]}]
*/
