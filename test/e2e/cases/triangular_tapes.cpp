// Inner loops whose trip count depends on the outer index (triangular
// solves, a widening stencil) and that overwrite what they read: their
// tapes are sized by the outer index, allocated once before the backward
// sweep at the largest size over the loop (opt/loop_bounds.cpp).
#include <unfad/unfad.h>

#include <cmath>
#include <vector>

// Back substitution U x = b in place in x (U upper triangular, row-major),
// the outer loop running backwards.
UNFAD_GRADIENT double back_substitute(const double* u, const double* b, int n) {
  std::vector<double> x(n);
  for (int i = 0; i < n; ++i) x[i] = b[i];
  for (int i = n - 1; i >= 0; --i) {
    for (int j = i + 1; j < n; ++j) x[i] -= u[i * n + j] * x[j];
    x[i] /= u[i * n + i];
  }
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += x[i] * x[i];
  return s;
}

// Each step smooths a window that grows with the step (2 k + 1 cells),
// nonlinearly and in place, so each cell's old value is taped.
UNFAD_GRADIENT double widening(const double* v, int n, int steps) {
  std::vector<double> y(v, v + n);
  for (int k = 0; k < steps; ++k) {
    const int width = 2 * k + 1 < n - 1 ? 2 * k + 1 : n - 1;
    for (int j = 0; j < width; ++j) y[j + 1] = std::sin(y[j + 1] + 0.5 * y[j] * y[j + 1]);
  }
  double s = 0.0;
  for (int j = 0; j < n; ++j) s += y[j];
  return s;
}

// A Cholesky-style column product, per sample: the inner trip count is
// d - col - 1, the state of the inner loop a running position.
UNFAD_GRADIENT double lower_products(const double* l, const double* x, int n, int d) {
  std::vector<double> q(d);
  double total = 0.0;
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < d; ++j) q[j] = std::exp(x[i * d + j]);
    int li = 0;
    for (int col = 0; col < d; ++col)
      for (int row = col + 1; row < d; ++row) q[row] += l[li++] * q[col] * q[row];
    for (int j = 0; j < d; ++j) total += q[j];
  }
  return total;
}

/* e2e
[{"function": "back_substitute",
  "points": [[[2.0, 0.5, -0.3, 0.0, 1.5, 0.25, 0.0, 0.0, 3.0], [1.0, -2.0, 0.5], 3],
             [[1.25], [0.75], 1]]},
 {"function": "widening", "points": [[[0.5, -0.25, 0.75, 0.1, 0.3], 5, 3], [[0.5, -0.25], 2, 2], [[0.5], 1, 2]]},
 {"function": "lower_products",
  "points": [[[0.1, -0.2, 0.3], [0.5, -0.25, 0.75, 0.1, 0.2, -0.3], 2, 3], [[0.7], [0.5, -0.25], 1, 2]]}]
*/
