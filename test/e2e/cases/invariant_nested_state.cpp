// Step loops whose inner loops carry a running sum: when no step changes
// the sum's sequence (it starts from a value fixed before the loop and adds
// values of an input nothing writes), it is taped once before the step loop
// and shared by the stages computing the same sequence
// (lib/ad/rev/invariant_state.cpp); otherwise it is taped per (step,
// element) as before. The shapes: GradBench's ode (RK4, four stages with
// the same running sum of x), sums that differ only slightly (scaled by a
// scalar, run backwards: not shared), and sums that a step does change (an
// initial value from the step, a local array or an output the step writes).
#include <unfad/unfad.h>

#include <vector>

// dy[0] = x[0], dy[i] = (x[1] + ... + x[i]) y[i-1]
static void rhs(const double* x, const double* y, double* dy, int n) {
  dy[0] = x[0];
  double c = 0.0;
  for (int i = 1; i < n; ++i) {
    c += x[i];
    dy[i] = c * y[i - 1];
  }
}

UNFAD_GRADIENT_WRT(x, y) void ode(const double* x, int n, int s, double* y) {
  std::vector<double> k1(n), k2(n), k3(n), k4(n), tmp(n);
  const double h = 2.0 / s;
  for (int i = 0; i < n; ++i) y[i] = 0.0;
  for (int step = 0; step < s; ++step) {
    rhs(x, y, k1.data(), n);
    for (int i = 0; i < n; ++i) tmp[i] = y[i] + 0.5 * h * k1[i];
    rhs(x, tmp.data(), k2.data(), n);
    for (int i = 0; i < n; ++i) tmp[i] = y[i] + 0.5 * h * k2[i];
    rhs(x, tmp.data(), k3.data(), n);
    for (int i = 0; i < n; ++i) tmp[i] = y[i] + h * k3[i];
    rhs(x, tmp.data(), k4.data(), n);
    for (int i = 0; i < n; ++i) y[i] += h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]);
  }
}

// Three invariant sums, all different: c += x[i], c += a x[i] (a scalar
// fixed before the loop), and c += x[i] run from the top down.
UNFAD_GRADIENT_WRT(x, a) double three_sums(const double* x, double a, int n, int steps) {
  std::vector<double> u(n, 1.0), v(n);
  for (int t = 0; t < steps; ++t) {
    double c = 0.0;
    for (int i = 0; i < n; ++i) {
      c += x[i];
      v[i] = c * u[i];
    }
    double d = 0.5;
    for (int i = 0; i < n; ++i) {
      d += a * x[i];
      v[i] += d * u[i] * u[i];
    }
    double e = 0.0;
    for (int i = n - 1; i >= 0; --i) {
      e += x[i];
      u[i] = 0.5 * u[i] + 0.1 * v[i] * e;
    }
  }
  double r = 0.0;
  for (int i = 0; i < n; ++i) r += u[i] * (i + 1.0);
  return r;
}

// Sums a step changes: from a value of the step, of a local array the step
// rewrites, of an output the step writes.
UNFAD_GRADIENT_WRT(x, out) void varying(const double* x, int n, int steps, double* out) {
  std::vector<double> u(x, x + n), v(n);
  for (int t = 0; t < steps; ++t) {
    double c = 0.1 * t;
    for (int i = 0; i < n; ++i) {
      c += x[i];
      v[i] = c * u[i];
    }
    double d = 0.0;
    for (int i = 0; i < n; ++i) {
      d += u[i];
      out[i] = d * v[i];
    }
    double e = 0.0;
    for (int i = 0; i < n; ++i) {
      e += out[i];
      u[i] = 0.5 * v[i] + 0.01 * e * u[i];
    }
  }
}

/* e2e
[{"function": "ode", "inouts": {"y": 4},
  "points": [[[0.5, -0.75, 1.25, 0.3], 4, 3, [0.0, 0.0, 0.0, 0.0]],
             [[0.8, 0.1, -0.4, 0.6], 4, 2, [0.0, 0.0, 0.0, 0.0]]]},
 {"function": "three_sums",
  "points": [[[0.5, -0.75, 1.25, 0.3], 0.7, 4, 3], [[0.2, 0.4, -0.6], -1.5, 3, 1], [[0.3, 0.2], 0.5, 2, 0]]},
 {"function": "varying", "outputs": {"out": 4},
  "points": [[[0.5, -0.75, 1.25, 0.3], 4, 3], [[0.8, 0.1, -0.4, 0.6], 4, 2]]}]
*/
