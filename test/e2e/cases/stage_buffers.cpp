// Time-stepping with scratch stage buffers: each step's reverse sweep adds
// into a stage's cotangent buffer first, which the optimiser stores instead
// (first-adds) and whose resets it drops where no later access of the step
// reaches them. The shapes around the rule: stages read at their own index
// only (rk4, with GradBench's right-hand side, d_k read at [1, n) then at
// 0), a stage also read at one fixed element by every iteration (coupled:
// its first add is not at its own index only), neighbours at i - 1 and
// i + 1 (heat: the first add does not cover the buffer), and a stage read
// again after it was read whole (twice). Checked against finite
// differences.
#include <unfad/unfad.h>

#include <cmath>
#include <vector>

static void rhs(const double* x, const double* y, double* dy, int n) {
  dy[0] = x[0];
  double c = 0.0;
  for (int i = 1; i < n; ++i) {
    c += x[i];
    dy[i] = c * y[i - 1];
  }
}

UNFAD_GRADIENT_WRT(x, y) void rk4(const double* x, int n, int s, double* y) {
  std::vector<double> k1(n), k2(n), k3(n), k4(n), tmp(n);
  const double h = 1.0 / s;
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

double coupled(const std::vector<double>& w, int steps) {
  std::vector<double> y(w), k(w.size());
  const std::size_t n = w.size();
  double h = 0.1;
  for (int s = 0; s < steps; ++s) {
    for (std::size_t i = 0; i < n; ++i) k[i] = std::sin(y[i]) * w[i];
    for (std::size_t i = 0; i < n; ++i) y[i] += h * k[i] * k[0];
  }
  double r = 0;
  for (double v : y) r += v * v;
  return r;
}
UNFAD_GRADIENT double coupled_loss(const std::vector<double>& w, int steps) { return coupled(w, steps); }

UNFAD_GRADIENT double heat(const std::vector<double>& u0, double kappa, int steps) {
  const int n = static_cast<int>(u0.size());
  std::vector<double> u(u0), next(n);
  for (int s = 0; s < steps; ++s) {
    next[0] = u[0];
    next[n - 1] = u[n - 1];
    for (int i = 1; i + 1 < n; ++i) next[i] = u[i] + kappa * (u[i - 1] - 2.0 * u[i] + u[i + 1]);
    for (int i = 0; i < n; ++i) u[i] = next[i] * next[i] * 0.5 + 0.5 * next[i];
  }
  double e = 0;
  for (int i = 0; i < n; ++i) e += u[i] * std::cos(u[i]);
  return e;
}

UNFAD_GRADIENT double twice(const std::vector<double>& a, int steps) {
  const std::size_t n = a.size();
  std::vector<double> k(n);
  double acc = 0;
  for (int s = 0; s < steps; ++s) {
    for (std::size_t i = 0; i < n; ++i) k[i] = a[i] * (s + 1.0) + std::sin(acc);
    double first = 0;
    for (std::size_t i = 0; i < n; ++i) first += k[i] * k[i];
    double second = 0;
    for (std::size_t i = 0; i < n; ++i) second += std::exp(-k[i]) * first;
    acc += 0.01 * second;
  }
  return acc;
}

/* e2e
[{"function": "rk4", "inouts": {"y": 5},
  "points": [[[0.5, -0.75, 1.25, 0.3, 0.9], 5, 4, [0.2, 0.4, -0.6, 1.0, 2.0]], [[0.3, 0.2, 0.1, -0.5, 0.7], 5, 1, [1.0, 1.0, 1.0, 1.0, 1.0]]]},
 {"function": "coupled_loss",
  "points": [[[0.5, -0.75, 1.25, 0.3], 3], [[0.2, 0.1], 1]]},
 {"function": "heat",
  "points": [[[0.1, 0.5, -0.3, 0.8, 0.2], 0.2, 3], [[0.4, -0.2, 0.6], 0.1, 2]]},
 {"function": "twice",
  "points": [[[0.5, -0.75, 1.25], 3], [[0.1, 0.2], 1]]}]
*/
