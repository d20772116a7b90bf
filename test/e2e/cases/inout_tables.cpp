// Grids and tables updated in place through a marked function's
// std::vector<std::vector<double>>& (or std::vector<std::array<double, N>>&)
// parameter, read and then written: a Gauss-Seidel sweep, relaxation steps,
// rows normalised through references with an early return, a helper given
// each row, a helper given the whole table, rows that are std::arrays. The
// gradient stages the table through a flat local copy (lib/frontend/
// inout_tables.cpp); d_u carries the cotangent of u's final value in and of
// its initial value out, and f_grad leaves u as f does. Also the rows of a
// local table walked by range-for and bound to a reference (their length is
// the row's, not the rest of the buffer), and given to std::accumulate by
// its iterators. Checked against finite differences.
#include <unfad/unfad.h>

#include <array>
#include <cmath>
#include <numeric>
#include <vector>

using Grid = std::vector<std::vector<double>>;

UNFAD_GRADIENT double sweep(Grid& u, double h) {
  const std::size_t n = u.size();
  for (std::size_t i = 1; i + 1 < n; ++i)
    for (std::size_t j = 1; j + 1 < n; ++j)
      u[i][j] = 0.25 * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1]) + h * u[i][j];
  double r = 0;
  for (const auto& row : u)
    for (double v : row) r += v * v;
  return r;
}

UNFAD_GRADIENT double relax(Grid& u, double h, int steps) {
  const std::size_t n = u.size(), m = u[0].size();
  for (int s = 0; s < steps; ++s)
    for (std::size_t i = 1; i + 1 < n; ++i)
      for (std::size_t j = 1; j + 1 < m; ++j)
        u[i][j] += h * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1] - 4 * u[i][j]);
  double e = 0;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < m; ++j) e += u[i][j] * u[i][j];
  return e;
}

UNFAD_GRADIENT double normalize_rows(Grid& a, double cap) {
  double total = 0;
  for (auto& row : a) {
    double s = 0;
    for (double v : row) s += v * v;
    s = std::sqrt(s);
    for (double& v : row) v /= s;
    total += s;
    if (total > cap) return total;
  }
  return total;
}

static void damp(std::vector<double>& row, double k) {
  for (std::size_t j = 0; j < row.size(); ++j) row[j] *= std::exp(-k * j);
}

UNFAD_GRADIENT void damp_all(Grid& a, double k, double& out) {
  for (std::size_t i = 0; i < a.size(); ++i) damp(a[i], k);
  auto& first = a[0];
  first[0] = first[0] * first[1];
  out = 0;
  for (const auto& row : a) out += row[0] * row.back();
}

static void scale_rows(Grid& X, double s) {
  for (auto& r : X)
    for (std::size_t i = 0; i < r.size(); ++i) r[i] = r[i] * s + 1.0;
}

UNFAD_GRADIENT double whole_to_helper(Grid& X, double s) {
  scale_rows(X, s);
  return X[0][0] * X[1][2];
}

UNFAD_GRADIENT double array_rows(std::vector<std::array<double, 2>>& P, double s) {
  for (auto& p : P) p[0] *= s;
  double r = 0;
  for (const auto& p : P) r += p[0] * p[1];
  return r;
}

// A local table's rows by range-for and by a reference.
UNFAD_GRADIENT double local_rows(const std::vector<double>& x, int n) {
  std::vector<std::vector<double>> M(n, std::vector<double>(n));
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) M[i][j] = x[i * n + j];
  double r = 0;
  for (const auto& row : M)
    for (double v : row) r += v * v;
  for (int i = 0; i < n; ++i) {
    const auto& row = M[i];
    for (double v : row) r += v * std::sin(v);
    r += row.size() * row.back();
  }
  return r;
}
// A local table's rows summed by std::accumulate over their iterators.
UNFAD_GRADIENT double row_sums(const std::vector<double>& x, int n) {
  std::vector<std::vector<double>> M(n, std::vector<double>(n));
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) M[i][j] = x[i * n + j];
  double r = 0;
  for (int i = 0; i < n; ++i) r += std::sin(std::accumulate(M[i].begin(), M[i].end(), 0.0));
  return r;
}
/* e2e
[{"function": "sweep", "inouts": {"u": [4, 4]}, "points": [[[[0.1, 0.2, 0.3, 0.4], [0.5, 0.6, 0.7, 0.8], [0.9, 1.0, 1.1, 1.2], [1.3, 1.4, 1.5, 1.6]], 0.3]]},
 {"function": "relax", "inouts": {"u": [4, 3]}, "points": [[[[0.1, 0.2, 0.3], [0.5, 0.6, 0.7], [0.9, 1.0, 1.1], [1.3, 1.4, 1.5]], 0.1, 3]]},
 {"function": "normalize_rows", "inouts": {"a": [3, 2]}, "points": [[[[0.1, 0.2], [0.5, 0.6], [0.9, 1.0]], 10.0], [[[0.1, 0.2], [0.5, 0.6], [0.9, 1.0]], 0.5]]},
 {"function": "damp_all", "inouts": {"a": [3, 2]}, "outputs": {"out": 1}, "points": [[[[0.1, 0.2], [0.5, 0.6], [0.9, 1.0]], 0.3]]},
 {"function": "whole_to_helper", "inouts": {"X": [2, 3]}, "points": [[[[0.1, 0.2, 0.3], [0.5, 0.6, 0.7]], 1.3]]},
 {"function": "array_rows", "inouts": {"P": [3, 2]}, "points": [[[[0.1, 0.2], [0.5, 0.6], [0.9, 1.0]], 1.3]]},
 {"function": "local_rows", "points": [[[0.3, -0.7, 1.1, 0.4, 2.0, 0.5, -1.0, 0.2, 0.3], 3]]},
 {"function": "row_sums", "points": [[[0.3, -0.7, 1.1, 0.4, 2.0, 0.5, -1.0, 0.2, 0.3], 3]]}]
*/
