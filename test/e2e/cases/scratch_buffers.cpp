// Scratch buffers of a time-stepping loop: every step fills k1, mid, k2
// whole before reading them, and reads them only after its last write, so
// the reverse sweep recomputes a step without saving or putting back what
// the buffers held (no per-step copies). The other functions are the
// shapes that still need the buffer put back: filled twice in a step with
// a read between, read before a partial rewrite, and read after the loop
// (by code whose derivative runs after the sweep).
#include <unfad/unfad.h>

#include <cmath>
#include <vector>

static void rhs(int n, const double* c, const double* y, double* dy) {
  dy[0] = c[0] * std::sin(y[n - 1]);
  for (int i = 1; i < n; ++i) dy[i] = c[i] * y[i - 1] - 0.5 * y[i];
}

// Midpoint steps of y' = rhs(y), the state advanced in place.
UNFAD_GRADIENT double midpoint(const double* c, const double* y0, int n, int steps) {
  const double h = 0.5 / steps;
  std::vector<double> y(y0, y0 + n), k1(n), k2(n), mid(n);
  for (int s = 0; s < steps; ++s) {
    rhs(n, c, y.data(), k1.data());
    for (int i = 0; i < n; ++i) mid[i] = y[i] + 0.5 * h * k1[i];
    rhs(n, c, mid.data(), k2.data());
    for (int i = 0; i < n; ++i) y[i] += h * k2[i];
  }
  double e = 0.0;
  for (int i = 0; i < n; ++i) e += y[i] * y[i] * (1.0 + 0.1 * i);
  return e;
}

// One buffer filled twice per step, read in between: the second fill must
// put back what the first left for the first reads' derivatives.
UNFAD_GRADIENT double refilled(const double* x, int n, int steps) {
  std::vector<double> buf(n), acc(x, x + n);
  double total = 0.0;
  for (int s = 0; s < steps; ++s) {
    for (int i = 0; i < n; ++i) buf[i] = std::sin(acc[i] + s);
    for (int i = 0; i < n; ++i) total += buf[i] * acc[i];
    for (int i = 0; i < n; ++i) buf[i] = acc[i] * acc[i];
    for (int i = 0; i < n; ++i) acc[i] = 0.5 * acc[i] + 0.25 * buf[i];
  }
  return total + acc[0];
}

// Filled whole, read, then partly rewritten and read again in the step.
UNFAD_GRADIENT double partly_rewritten(const double* x, int n, int steps) {
  std::vector<double> buf(n), state(x, x + n);
  double total = 0.0;
  for (int s = 0; s < steps; ++s) {
    for (int i = 0; i < n; ++i) buf[i] = std::tanh(state[i]);
    total += buf[0] * buf[n - 1];
    buf[0] = state[n - 1] * 0.5;
    for (int i = 0; i < n; ++i) state[i] += 0.1 * buf[i] * buf[(i + 1) % n];
  }
  return total + state[n - 1];
}

// The scratch buffer is read after the loop: its last contents matter, and
// so does what it held before the loop for the code before it.
UNFAD_GRADIENT double read_after_loop(const double* x, int n, int steps) {
  std::vector<double> k(x, x + n), y(n, 1.0);
  double pre = 0.0;
  for (int i = 0; i < n; ++i) pre += k[i] * k[i];
  for (int s = 0; s < steps; ++s) {
    for (int i = 0; i < n; ++i) k[i] = std::cos(y[i]) * x[i];
    for (int i = 0; i < n; ++i) y[i] += 0.2 * k[i];
  }
  return pre * k[n - 1] + y[0];
}

// Scratch buffers in a nest: steps of substeps, filled in the inner loop.
UNFAD_GRADIENT double nested_steps(const double* c, const double* y0, int n, int outer, int inner) {
  std::vector<double> y(y0, y0 + n), k(n);
  double e = 0.0;
  for (int o = 0; o < outer; ++o) {
    for (int s = 0; s < inner; ++s) {
      rhs(n, c, y.data(), k.data());
      for (int i = 0; i < n; ++i) y[i] += 0.05 * k[i];
    }
    e += y[o % n];
  }
  return e;
}

/* e2e
[{"function": "midpoint",
  "points": [[[0.5, -0.75, 1.25, 0.3], [0.2, 0.4, -0.6, 1.0], 4, 6], [[0.8, 0.1], [1.5, -0.5], 2, 3]]},
 {"function": "refilled",
  "points": [[[0.5, -1.25, 0.75, 0.3], 4, 3], [[1.2, -0.4], 2, 2]]},
 {"function": "partly_rewritten",
  "points": [[[0.5, -1.25, 0.75, 0.3], 4, 3], [[1.2, -0.4, 0.6], 3, 4]]},
 {"function": "read_after_loop",
  "points": [[[0.5, -1.25, 0.75, 0.3], 4, 3], [[1.2, -0.4], 2, 0]]},
 {"function": "nested_steps",
  "points": [[[0.5, -0.75, 1.25], [0.2, 0.4, -0.6], 3, 2, 3], [[0.8, 0.1], [1.5, -0.5], 2, 3, 2]]}]
*/
