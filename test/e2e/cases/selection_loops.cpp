// Selection loops: a min or max over a loop (fmin/fmax, std::min/std::max,
// `if (e < best) best = e`). The gradient reaches the one value chosen (or
// the initial value when none is), found by the forward loop; the reverse
// pass recomputes that iteration only (lib/ad/rev/selection.cpp).
#include <unfad/unfad.h>

#include <algorithm>
#include <cmath>
#include <vector>

static double sq_dist(const double* a, const double* b, int d) {
  double s = 0.0;
  for (int m = 0; m < d; ++m) {
    const double t = a[m] - b[m];
    s += t * t;
  }
  return s;
}

// The nearest centroid with std::min, the first centroid as the start.
UNFAD_GRADIENT double nearest_std_min(const double* points, const double* centroids, int n, int k, int d) {
  double cost = 0.0;
  for (int i = 0; i < n; ++i) {
    const double* p = points + i * d;
    double best = sq_dist(p, centroids, d);
    for (int j = 1; j < k; ++j) best = std::min(best, sq_dist(p, centroids + j * d, d));
    cost += best * best;
  }
  return cost;
}

// A max over scores that read an active scalar (its cotangent comes from the
// winner only), iterated backwards, the state as fmax's second argument.
UNFAD_GRADIENT double max_score(const double* x, double mu, double scale, int n) {
  double top = -1e300;
  for (int j = n - 1; j >= 0; --j) top = std::fmax(scale * std::sin(x[j] - mu), top);
  return top * mu;
}

// The start value wins when no element beats it (here for some points).
UNFAD_GRADIENT double capped_min(const double* x, double cap, int n) {
  double best = cap * cap;
  for (int j = 0; j < n; ++j) {
    const double e = std::exp(x[j]) - 1.0;
    if (e < best) best = e;
  }
  return best + 0.5 * cap;
}

// Scores read a local array that is overwritten after the loop: the winner's
// recomputation must see the values the loop saw.
UNFAD_GRADIENT double max_then_overwrite(const double* x, int n) {
  std::vector<double> w(n);
  for (int j = 0; j < n; ++j) w[j] = x[j] * x[j];
  double top = w[0];
  for (int j = 1; j < n; ++j) top = std::max(top, w[j] * x[(j + 1) % n]);
  for (int j = 0; j < n; ++j) w[j] = top * x[j];
  double s = 0.0;
  for (int j = 0; j < n; ++j) s += w[j];
  return s;
}

// Log-sum-exp with the max taken first (GMM-style), in an outer loop.
UNFAD_GRADIENT double rows_logsumexp(const double* a, int rows, int cols) {
  double total = 0.0;
  for (int r = 0; r < rows; ++r) {
    const double* row = a + r * cols;
    double top = row[0];
    for (int c = 1; c < cols; ++c) top = std::max(top, row[c]);
    double s = 0.0;
    for (int c = 0; c < cols; ++c) s += std::exp(row[c] - top);
    total += top + std::log(s);
  }
  return total;
}

/* e2e
[{"function": "nearest_std_min",
  "points": [[[0.5, -1.25, 2.0, 0.75, -0.3, 1.1], [0.1, 0.2, 1.5, -0.4, -1.0, 1.2], 3, 3, 2],
             [[0.9, 0.2], [0.3, 0.4, -0.6, 0.8], 1, 2, 2],
             [[0.9, 0.2, 0.1], [0.3, 0.4, -0.6], 1, 1, 3]]},
 {"function": "max_score", "points": [[[0.5, -1.25, 2.0, 0.75], 0.3, 1.5, 4], [[0.5], -0.2, 0.7, 1]],
  "value_formula": "max(scale*sin(x[j]-mu) for j in range(n)) * mu"},
 {"function": "capped_min", "points": [[[0.5, -1.25, 2.0], 1.1, 3], [[0.5, 1.25, 2.0], 0.3, 3], [[0.5], 0.9, 0]],
  "value_formula": "min([cap*cap] + [exp(x[j]) - 1.0 for j in range(n)]) + 0.5*cap"},
 {"function": "max_then_overwrite", "points": [[[0.5, -1.25, 2.0, 0.75], 4], [[1.5, 0.25, -0.5], 3]]},
 {"function": "rows_logsumexp", "points": [[[0.5, -1.25, 2.0, 0.75, 0.1, 0.4], 2, 3], [[0.5, 2.5, -0.5], 1, 3]],
  "value_formula": "sum(log(sum(exp(a[r*cols+c]) for c in range(cols))) for r in range(rows))"}]
*/
