// Time-stepping loops that advance an in/out state in place through helpers
// with loops, as an ODE solver is written (lib/ad/rev/nested_tapes.cpp,
// lib/ad/rev/inout_state.cpp): the forward sweep tapes each stage's state
// and reads per (step, element), the backward loop runs only the stages'
// transposes, and when no transpose reads the in/out state it keeps the
// forward sweep's final value (no undo, no second run of f). Also the
// shapes that keep the rerun: a backward sweep that reads the state, and a
// step whose inner bound changes with the step (not taped). Every gradient
// is checked against finite differences, and every final state against f.
#include <unfad/unfad.h>

#include <vector>

// dy[0] = x[0], dy[i] = (x[1] + ... + x[i]) y[i-1] - 0.25 y[i]
static void rhs(const double* x, const double* y, double* dy, int n) {
  dy[0] = x[0] - 0.25 * y[0];
  double c = 0.0;
  for (int i = 1; i < n; ++i) {
    c += x[i];
    dy[i] = c * y[i - 1] - 0.25 * y[i];
  }
}

// s steps of the midpoint method.
UNFAD_GRADIENT_WRT(x, y) void midpoint(const double* x, int n, int s, double* y) {
  std::vector<double> k1(n), k2(n), mid(n);
  const double h = 1.0 / s;
  for (int step = 0; step < s; ++step) {
    rhs(x, y, k1.data(), n);
    for (int i = 0; i < n; ++i) mid[i] = y[i] + 0.5 * h * k1[i];
    rhs(x, mid.data(), k2.data(), n);
    for (int i = 0; i < n; ++i) y[i] += h * k2[i];
  }
}

// Classical Runge-Kutta from y = 0 (the state's initial value is
// overwritten: its cotangent is 0).
UNFAD_GRADIENT_WRT(x, y) void rk4(const double* x, int n, int s, double* y) {
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

// A nonlinear explicit Euler step on a std::vector state, whose stage reads
// the state twice (taped).
UNFAD_GRADIENT_WRT(a, u) void logistic(const std::vector<double>& a, int steps, std::vector<double>& u) {
  const int n = static_cast<int>(u.size());
  std::vector<double> du(n);
  for (int s = 0; s < steps; ++s) {
    for (int i = 0; i < n; ++i) du[i] = a[i] * u[i] * (1.0 - u[(i + 1) % n]);
    for (int i = 0; i < n; ++i) u[i] += 0.1 * du[i];
  }
}

// The inner bound changes with the step: recomputed, its backward sweep
// reads the state, so f runs again at the end.
UNFAD_GRADIENT_WRT(x, y) void growing(const double* x, int n, int steps, double* y) {
  for (int s = 0; s < steps; ++s) {
    const int m = s + 1 < n ? s + 1 : n;
    for (int i = 0; i < m; ++i) y[i] = y[i] * y[(i + 1) % n] * 0.5 + x[i];
  }
}

// No loop of steps: an accumulation whose transpose never reads y (kept
// as the forward sweep leaves it), and a scaling whose transpose does.
UNFAD_GRADIENT_WRT(x, y) void accumulate(const double* x, int n, double* y) {
  for (int i = 0; i < n; ++i) y[i] += x[i] * x[i];
}

UNFAD_GRADIENT_WRT(x, y) void scale(const double* x, int n, double* y) {
  for (int i = 0; i < n; ++i) y[i] *= x[i];
}

/* e2e
[{"function": "midpoint", "inouts": {"y": 4},
  "points": [[[0.5, -0.75, 1.25, 0.3], 4, 3, [0.2, 0.4, -0.6, 1.0]], [[0.8, 0.1, -0.4, 0.6], 4, 1, [1.5, -0.5, 0.25, 0.1]],
             [[0.8, 0.1, -0.4, 0.6], 4, 0, [1.5, -0.5, 0.25, 0.1]]]},
 {"function": "rk4", "inouts": {"y": 5},
  "points": [[[0.5, -0.75, 1.25, 0.3, 0.9], 5, 4, [0.2, 0.4, -0.6, 1.0, 2.0]], [[0.3, 0.2, 0.1, -0.5, 0.7], 5, 1, [1.0, 1.0, 1.0, 1.0, 1.0]]]},
 {"function": "logistic", "inouts": {"u": 3},
  "points": [[[1.5, 2.0, 0.5], 4, [0.2, 0.4, 0.6]], [[0.5, -1.0, 0.75], 2, [0.9, 0.1, 0.3]]]},
 {"function": "growing", "inouts": {"y": 4},
  "points": [[[0.5, -1.25, 0.75, 0.3], 4, 5, [0.2, 0.4, -0.6, 1.0]], [[1.2, -0.4, 0.6, 0.1], 4, 2, [0.5, 0.5, 0.5, 0.5]]]},
 {"function": "accumulate", "inouts": {"y": 3},
  "points": [[[0.5, -1.25, 0.75], 3, [0.2, 0.4, -0.6]]]},
 {"function": "scale", "inouts": {"y": 3},
  "points": [[[0.5, -1.25, 0.75], 3, [0.2, 0.4, -0.6]]]}]
*/
