// Time-stepping loops whose steps run inner loops over a state array: the
// forward pass tapes each inner loop's state and reads per (step, element)
// so that the backward sweep does not run a step forward again
// (lib/ad/rev/nested_tapes.cpp, with unfad --tape-nested-loops). The shapes: inner loops of transcendental
// functions, an inner loop carrying a running sum, a reversed inner loop,
// an in/out state, scalar reads at the step's top level, and a step whose
// inner bound changes with the step (not taped: the recomputing sweep).
#include <unfad/unfad.h>

#include <cmath>
#include <vector>

// An explicit Euler scheme for u' = sin(u) * a - u_{i-1} w, local state.
UNFAD_GRADIENT double euler(const double* a, const double* w, int n, int steps) {
  std::vector<double> u(a, a + n), du(n);
  const double h = 0.1;
  for (int s = 0; s < steps; ++s) {
    for (int i = 0; i < n; ++i) du[i] = std::sin(u[i]) * a[i] - u[(i + n - 1) % n] * w[i];
    const double first = u[0];
    for (int i = 0; i < n; ++i) u[i] += h * du[i] * std::exp(-0.1 * first * first);
  }
  double e = 0.0;
  for (int i = 0; i < n; ++i) e += u[i] * u[i];
  return e;
}

// A running sum carried by the inner loop (a float state), a reversed inner
// loop and an in/out state written through a pointer.
UNFAD_GRADIENT void sweep(const double* x, int n, int steps, double* y) {
  std::vector<double> acc(n);
  for (int s = 0; s < steps; ++s) {
    double c = 0.0;
    for (int i = 0; i < n; ++i) {
      c += x[i] * y[i];
      acc[i] = c * std::tanh(y[i]);
    }
    for (int i = n - 1; i >= 0; --i) y[i] = 0.5 * y[i] + 0.25 * acc[i] * acc[n - 1 - i] + c * 0.01;
  }
}

// The inner bound depends on the step: its tapes cannot be sized before the
// loop, so this one keeps the recomputing backward sweep.
UNFAD_GRADIENT double growing(const double* x, int n, int steps) {
  std::vector<double> u(x, x + n);
  for (int s = 0; s < steps; ++s) {
    const int m = s + 1 < n ? s + 1 : n;
    for (int i = 0; i < m; ++i) u[i] = u[i] * std::cos(u[(i + 1) % n]) + x[i];
  }
  double e = 0.0;
  for (int i = 0; i < n; ++i) e += u[i] * (i + 1.0);
  return e;
}

/* e2e
[{"function": "euler", "unfad_flags": ["--tape-nested-loops"],
  "points": [[[0.5, -0.75, 1.25, 0.3], [0.2, 0.4, -0.6, 1.0], 4, 3], [[0.8, 0.1, -0.4], [1.5, -0.5, 0.25], 3, 1],
             [[0.3, 0.2], [0.1, -0.2], 2, 0]]},
 {"function": "sweep", "inouts": {"y": 4},
  "points": [[[0.5, -0.75, 1.25, 0.3], 4, 3, [0.2, 0.4, -0.6, 1.0]], [[0.8, 0.1, -0.4, 0.6], 4, 1, [1.5, -0.5, 0.25, 0.1]]]},
 {"function": "growing",
  "points": [[[0.5, -1.25, 0.75, 0.3], 4, 5], [[1.2, -0.4, 0.6], 3, 2]]}]
*/
