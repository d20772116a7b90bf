// Time-stepping loops in the shapes of a Runge-Kutta solver: scratch
// stages filled by a helper whose loop carries a running sum (filled whole
// every step: nothing saved), a state advanced in place by a loop over a
// fixed range (each step's old values kept as one dense row, no index
// log), a recurrence along the state at the loop's own index (no index
// tape), and the nearby shapes that still need the general undo log.
#include <unfad/unfad.h>

#include <cmath>
#include <vector>

// dy_0 = r_0 y_{n-1}, dy_i = (r_1 + ... + r_i) y_{i-1}: a running sum.
static void chain_rhs(const double* r, const double* y, double* dy, int n) {
  dy[0] = r[0] * std::cos(y[n - 1]);
  double sum = 0.0;
  for (int i = 1; i < n; ++i) {
    sum += r[i];
    dy[i] = sum * y[i - 1];
  }
}

// Classical RK4 on the chain, the state y advanced in place (in/out).
UNFAD_GRADIENT void rk4(const double* r, int n, int steps, double* y) {
  std::vector<double> k1(n), k2(n), k3(n), k4(n), tmp(n);
  const double h = 0.5 / steps;
  for (int s = 0; s < steps; ++s) {
    chain_rhs(r, y, k1.data(), n);
    for (int i = 0; i < n; ++i) tmp[i] = y[i] + 0.5 * h * k1[i];
    chain_rhs(r, tmp.data(), k2.data(), n);
    for (int i = 0; i < n; ++i) tmp[i] = y[i] + 0.5 * h * k2[i];
    chain_rhs(r, tmp.data(), k3.data(), n);
    for (int i = 0; i < n; ++i) tmp[i] = y[i] + h * k3[i];
    chain_rhs(r, tmp.data(), k4.data(), n);
    for (int i = 0; i < n; ++i) y[i] += h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]);
  }
}

// A local state updated in place on [1, n) only (element 0 is a fixed
// boundary value): a dense row that starts at 1.
UNFAD_GRADIENT double relax(const double* x, int n, int sweeps) {
  std::vector<double> u(x, x + n), next(n);
  for (int s = 0; s < sweeps; ++s) {
    for (int i = 0; i < n; ++i) next[i] = std::sin(u[i]) + 0.25 * u[(i + 1) % n];
    for (int i = 1; i < n; ++i) u[i] = 0.5 * u[i] + 0.5 * next[i - 1] * x[i];
  }
  double e = 0.0;
  for (int i = 0; i < n; ++i) e += u[i] * u[i] * (1.0 + 0.25 * i);
  return e;
}

// A recurrence along the in/out state on [1, n): a dense row per pass;
// the inner loop itself reads what it overwrites, at its own index (its
// J^T puts back each element without an index tape).
UNFAD_GRADIENT void smooth(double* y, const double* w, int n, int passes) {
  for (int p = 0; p < passes; ++p)
    for (int i = 1; i < n; ++i) y[i] = y[i] * w[i] + 0.5 * std::tanh(y[i - 1]);
}

// Not dense: the range written grows with the step (a triangular nest),
// and a second loop rewrites part of the state: the general undo log.
UNFAD_GRADIENT void growing(double* y, const double* a, int n, int steps) {
  for (int s = 0; s < steps; ++s) {
    // (the range written grows with the step)
    const int m = s < n ? s + 1 : n;
    for (int i = 0; i < m; ++i) y[i] += a[i] * std::sin(y[(i + 1) % n]);
    for (int i = 0; i < n / 2; ++i) y[2 * i] *= 0.9 + 0.1 * a[i];
  }
}

/* e2e
[{"function": "rk4", "inouts": {"y": 4},
  "points": [[[0.5, -0.75, 1.25, 0.3], 4, 3, [0.2, 0.4, -0.6, 1.0]], [[0.8, 0.1, -0.4, 0.6], 4, 1, [1.5, -0.5, 0.25, 0.1]]]},
 {"function": "relax",
  "points": [[[0.5, -1.25, 0.75, 0.3], 4, 3], [[1.2, -0.4, 0.6], 3, 1]]},
 {"function": "smooth", "inouts": {"y": 4},
  "points": [[[0.5, -1.25, 0.75, 0.3], [1.1, 0.9, -0.8, 0.7], 4, 3], [[1.2, -0.4, 0.3, 0.9], [0.5, 1.5, 0.2, -1.0], 4, 2]]},
 {"function": "growing", "inouts": {"y": 4},
  "points": [[[0.5, -1.25, 0.75, 0.3], [1.1, 0.9, -0.8, 0.7], 4, 5], [[1.2, -0.4, 0.3, 0.8], [0.5, 1.5, 0.2, -0.3], 4, 2]]}]
*/
