// Outputs updated in place: a parameter the function writes, reads back and
// writes again (an accumulator `*err = *err + prior`, a state advanced step
// by step). Reverse mode keeps what each store overwrites and puts it back
// in the backward sweep, as for local arrays; f_grad leaves the outputs as
// f does. Written the way such code usually is: a thin marked wrapper over
// helpers that take the output pointer.
#include <unfad/unfad.h>

#include <algorithm>
#include <cmath>
#include <vector>

// A mixture-style objective: the data term is written first, the prior
// added to it afterwards through the same pointer.
static void objective_into(const double* a, int n, double* err) {
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += a[i] * a[i];
  *err = std::log(1.0 + s);
  double prior = 0.0;
  for (int i = 0; i < n; ++i) prior += std::sin(a[i]);
  *err = *err + 0.5 * prior;
}

UNFAD_GRADIENT void objective(const double* a, int n, double* err) { objective_into(a, n, err); }

// An explicit integrator: the state starts at zero and every step reads it
// and advances it in place (two stages, a right-hand side helper).
static void rhs(int n, const double* x, const double* y, double* z) {
  z[0] = x[0];
  for (int i = 1; i < n; ++i) z[i] = x[i] * y[i - 1];
}

UNFAD_GRADIENT void integrate(const double* x, int n, int steps, double* y) {
  const double h = 2.0 / steps;
  std::vector<double> k1(n), k2(n), tmp(n);
  std::fill(y, y + n, 0.0);
  for (int s = 0; s < steps; ++s) {
    rhs(n, x, y, k1.data());
    for (int i = 0; i < n; ++i) tmp[i] = y[i] + h * k1[i] / 2;
    rhs(n, x, tmp.data(), k2.data());
    for (int i = 0; i < n; ++i) y[i] += h * k2[i];
  }
}

// Runge-Kutta with one scratch buffer filled anew for every stage: each
// fill overwrites what the stage before read (the backward sweep must put
// the earlier fill back for that stage's recomputation).
UNFAD_GRADIENT void integrate_rk(const double* x, int n, int steps, double* y) {
  const double h = 1.0 / steps;
  std::vector<double> k1(n), k2(n), k3(n), stage(n);
  std::fill(y, y + n, 0.5);
  for (int s = 0; s < steps; ++s) {
    rhs(n, x, y, k1.data());
    for (int i = 0; i < n; ++i) stage[i] = y[i] + h * k1[i] / 2;
    rhs(n, x, stage.data(), k2.data());
    for (int i = 0; i < n; ++i) stage[i] = y[i] + h * k2[i] / 2;
    rhs(n, x, stage.data(), k3.data());
    for (int i = 0; i < n; ++i) y[i] += h * (k1[i] + 2 * k2[i] + k3[i]) / 4;
  }
}

// Softmax normalised in place in the output: written, read, rescaled.
UNFAD_GRADIENT void softmax(const double* x, int n, double* p) {
  double m = x[0];
  for (int i = 1; i < n; ++i) m = std::max(m, x[i]);
  for (int i = 0; i < n; ++i) p[i] = std::exp(x[i] - m);
  double z = 0.0;
  for (int i = 0; i < n; ++i) z += p[i];
  for (int i = 0; i < n; ++i) p[i] /= z;
}

// A running product through a pointer to one element of the output, with
// the value returned too.
UNFAD_GRADIENT double cumulative(const double* x, int n, double* out) {
  double* last = out + (n - 1);
  *last = 1.0;
  for (int i = 0; i < n; ++i) {
    out[i] = x[i] * x[i];
    *last *= 1.0 + 0.1 * x[i];
  }
  return *last;
}

/* e2e
[{"function": "objective", "outputs": {"err": 1},
  "points": [[[0.5, -1.25, 2.0], 3], [[1.5, 0.3], 2]],
  "grad_formula": ["[w_err[0]*(2*a[i]/(1 + sum(t*t for t in a)) + 0.5*cos(a[i])) for i in range(n)]"]},
 {"function": "integrate", "outputs": {"y": 3},
  "points": [[[0.5, -0.75, 1.25], 3, 4], [[1.0, 0.5, -0.5], 3, 1]]},
 {"function": "integrate_rk", "outputs": {"y": 4},
  "points": [[[0.5, -0.75, 1.25, 0.3], 4, 3], [[1.0, 0.5, -0.5, 2.0], 4, 1]]},
 {"function": "softmax", "outputs": {"p": 4},
  "points": [[[0.5, -1.0, 2.0, 0.25], 4]],
  "grad_formula": ["[(lambda e: (lambda z: (lambda p: p[i]*(w_p[i] - sum(w_p[k]*p[k] for k in range(n))))([t/z for t in e]))(sum(e)))([exp(t) for t in x]) for i in range(n)]"]},
 {"function": "cumulative", "outputs": {"out": 3},
  "points": [[[0.5, -1.0, 2.0], 3], [[0.25, 1.5, -0.5], 3]]}]
*/
