// Helpers that update the array they are given in place (read it, then
// write it): on a local buffer, through a view of one row, and recursively
// (a recursive helper keeps its own pullback, which recomputes the call
// from the memory it found and undoes its writes).
#include <unfad/unfad.h>

#include <cmath>
#include <cstddef>
#include <vector>

static void scale(double* v, int n, double s) {
  for (int i = 0; i < n; ++i) v[i] *= s;
}

static void differences(std::vector<double>& v) {
  for (std::size_t i = 0; i + 1 < v.size(); ++i) v[i] = v[i + 1] - v[i] * v[i];
}

// sum of squares of a buffer rescaled and differenced in place, twice
UNFAD_GRADIENT double rescaled(const std::vector<double>& x, double s) {
  std::vector<double> v(x);
  scale(v.data(), static_cast<int>(v.size()), s);
  differences(v);
  scale(v.data() + 1, static_cast<int>(v.size()) - 1, s);
  differences(v);
  double total = 0.0;
  for (double e : v) total += e * e;
  return total;
}

// Each row of a matrix normalised in place by a helper given a row pointer.
static void normalise_row(double* row, int d) {
  double s = 0.0;
  for (int j = 0; j < d; ++j) s += row[j] * row[j];
  const double r = std::sqrt(s);
  for (int j = 0; j < d; ++j) row[j] /= r;
}

UNFAD_GRADIENT double row_energy(const double* x, int m, int d) {
  std::vector<double> a(x, x + m * d);
  for (int i = 0; i < m; ++i) normalise_row(&a[i * d], d);
  double e = 0.0;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < d; ++j) e += a[i * d + j] * std::exp(0.1 * j);
  return e;
}

// A recursive smoother: each level rewrites the buffer, then recurses.
static void smooth(std::vector<double>& v, int depth) {
  if (depth == 0) return;
  for (std::size_t i = 0; i + 1 < v.size(); ++i) v[i] = 0.5 * (v[i] + v[i + 1]) * std::cos(v[i]);
  smooth(v, depth - 1);
}

UNFAD_GRADIENT double smoothed(const std::vector<double>& x, int depth) {
  std::vector<double> v(x);
  smooth(v, depth);
  double s = 0.0;
  for (double e : v) s += e * e;
  return s;
}

/* e2e
[{"function": "rescaled", "points": [[[0.5, -1.25, 2.0, 0.75], 1.5], [[1.0, 0.25], -0.5]]},
 {"function": "row_energy", "points": [[[0.5, -1.25, 2.0, 0.75, 1.5, -0.5], 2, 3], [[1.0, 2.0, -1.0, 0.5], 2, 2]]},
 {"function": "smoothed", "points": [[[0.5, -1.25, 2.0, 0.75], 3], [[0.3, 0.9, -0.4], 1], [[0.3, 0.9], 0]]}]
*/
