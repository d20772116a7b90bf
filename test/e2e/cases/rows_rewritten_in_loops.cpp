// A loop whose body fills one row of a local table with an inner loop and
// then reads it (and the rows before it). In the backward sweep the body is
// recomputed; the inner fill loop's overwritten elements are put back from
// tapes of what it overwrote, where a copy of the whole table per outer
// iteration made the gradient O(n^2) (63x the primal at n = 2,000, 384x at
// 16,000). The shapes: a std::vector of rows, a flat array of 3-vectors, a
// fill under a branch, two fills of one row, a fill of a row a helper then
// rewrites.
#include <unfad/unfad.h>

#include <cmath>
#include <vector>

UNFAD_GRADIENT double trajectory_rows(const double* x, int n) {
  std::vector<std::vector<double>> pos(n, std::vector<double>(3));
  for (int t = 0; t < n; ++t) {
    for (int i = 0; i < 3; ++i) pos[t][i] = x[3 * t + i];
    if (t > 0)
      for (int i = 0; i < 3; ++i) pos[t][i] += 0.5 * std::sin(pos[t - 1][i]);
  }
  double s = 0;
  for (int t = 0; t < n; ++t)
    for (int i = 0; i < 3; ++i) s += pos[t][i] * pos[t][i];
  return s;
}

UNFAD_GRADIENT double flat_rows(const double* x, const double* w, int n) {
  std::vector<double> pos(3 * n);
  double s = 0;
  for (int v = 0; v < n; ++v) {
    for (int i = 0; i < 3; ++i) pos[3 * v + i] = w[i] * x[3 * v + i];
    for (int i = 0; i < 3; ++i) pos[3 * v + i] *= std::cos(pos[3 * v + (i + 1) % 3]);
    if (v > 0) s += pos[3 * v] * pos[3 * (v - 1) + 2];
  }
  return s;
}

UNFAD_GRADIENT double branch_filled(const double* x, int n) {
  std::vector<double> t(2 * n, 1.0);
  double s = 0;
  for (int k = 0; k < n; ++k) {
    if (x[k] > 0)
      for (int i = 0; i < 2; ++i) t[2 * k + i] = x[k] * (i + 2);
    t[2 * k] = t[2 * k] * t[2 * k + 1] + (k > 0 ? std::exp(0.1 * t[2 * k - 1]) : 0.0);
    s += t[2 * k];
  }
  return s;
}

UNFAD_GRADIENT double filled_twice(const double* x, int n) {
  std::vector<std::vector<double>> rows(n, std::vector<double>(2));
  double s = 0;
  for (int k = 0; k < n; ++k) {
    for (int i = 0; i < 2; ++i) rows[k][i] = std::sin(x[k] + i);
    s += rows[k][0] * rows[k][1];
    for (int i = 0; i < 2; ++i) rows[k][i] = rows[k][i] * x[k] + (k > 0 ? rows[k - 1][i] : 0.0);
    s += rows[k][0] - 2 * rows[k][1] * rows[k][1];
  }
  return s;
}

static void scale_row(double* row, int m, double f) {
  for (int i = 0; i < m; ++i) row[i] *= f;
}

UNFAD_GRADIENT double helper_rewrites(const double* x, int n) {
  const int m = 3;
  std::vector<double> a(n * m);
  double s = 0;
  for (int k = 0; k < n; ++k) {
    for (int i = 0; i < m; ++i) a[k * m + i] = x[k] + 0.25 * i;
    scale_row(&a[k * m], m, std::tanh(x[(k + 1) % n]));
    for (int i = 0; i < m; ++i) s += a[k * m + i] * (k > 0 ? a[(k - 1) * m + i] : 1.0);
  }
  return s;
}

/* e2e
[{"function": "trajectory_rows", "points": [[[0.5, -1.25, 2.0, 0.75, 0.1, -0.3, 0.9, 1.1, -0.6, 0.2, 0.4, -0.8], 4], [[0.5, -1.25, 2.0], 1], [[0.5], 0]]},
 {"function": "flat_rows", "points": [[[0.5, -1.25, 2.0, 0.75, 0.1, -0.3, 0.9, 1.1, -0.6], [0.7, -0.2, 1.3], 3]]},
 {"function": "branch_filled", "points": [[[0.5, -1.25, 2.0, 0.75], 4], [[-0.5, 1.25, -2.0], 3]]},
 {"function": "filled_twice", "points": [[[0.5, -1.25, 2.0, 0.75], 4]]},
 {"function": "helper_rewrites", "points": [[[0.5, -1.25, 2.0, 0.75], 4], [[0.3], 1]]}]
*/
