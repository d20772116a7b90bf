// Scratch vectors refilled inside loops, as gmm writes its Mahalanobis term:
// `diff` and `qdiff` are overwritten whole for every point and cluster, then
// updated in place by a triangular loop. The reverse sweep must not need to
// save and restore them (nothing reads what a restore would put back), but
// where a refill covers only part of the array (`partial`), or a later
// iteration reads the old contents first (`carried`), the old values are
// still needed and still restored. References: finite differences.
#include <unfad/unfad.h>

#include <cmath>
#include <vector>

UNFAD_GRADIENT double mahalanobis(const double* x, const double* mu, const double* L, int n, int k, int d) {
  std::vector<double> diff(d), qdiff(d);
  double total = 0.0;
  for (int i = 0; i < n; ++i) {
    for (int c = 0; c < k; ++c) {
      for (int j = 0; j < d; ++j) {
        diff[j] = x[i * d + j] - mu[c * d + j];
        qdiff[j] = std::exp(L[c * d * d + j * d + j]) * diff[j];
      }
      for (int col = 0; col < d; ++col)
        for (int row = col + 1; row < d; ++row) qdiff[row] += L[c * d * d + row * d + col] * diff[col];
      double sq = 0.0;
      for (int j = 0; j < d; ++j) sq += qdiff[j] * qdiff[j];
      total += std::exp(-0.5 * sq);
    }
  }
  return total;
}

// The refill skips element 0: what the previous cluster left there is read.
UNFAD_GRADIENT double partial(const double* x, const double* mu, int n, int k, int d) {
  std::vector<double> q(d, 0.5);
  double total = 0.0;
  for (int i = 0; i < n; ++i)
    for (int c = 0; c < k; ++c) {
      for (int j = 1; j < d; ++j) q[j] = x[i * d + j] * mu[c * d + j];
      q[0] = std::sin(q[0] + q[d - 1]);
      for (int j = 0; j < d; ++j) total += q[j] * q[j];
    }
  return total;
}

// Each iteration reads the array before refilling it.
UNFAD_GRADIENT double carried(const double* x, int n, int d) {
  std::vector<double> s(d);
  double total = 0.0;
  for (int i = 0; i < n; ++i) {
    double prev = 0.0;
    for (int j = 0; j < d; ++j) prev += s[j] * x[i * d + j];
    for (int j = 0; j < d; ++j) s[j] = std::tanh(prev + x[i * d + j]);
    total += prev;
  }
  return total + s[0];
}

/* e2e
[{"function": "mahalanobis", "points": [[[0.3, -0.2, 0.9, 1.1, 0.4, -0.7, -0.5, 0.8, 0.2], [0.1, 0.5, -0.3, 0.7, -0.4, 0.2], [0.1, 0.0, 0.0, 0.3, -0.2, 0.0, -0.4, 0.6, 0.05, -0.1, 0.0, 0.0, 0.2, 0.15, 0.0, 0.5, -0.3, 0.1], 3, 2, 3]]},
 {"function": "partial", "points": [[[0.3, -0.2, 0.9, 1.1, 0.4, -0.7], [0.1, 0.5, -0.3, 0.7, -0.4, 0.2], 2, 2, 3]]},
 {"function": "carried", "points": [[[0.3, -0.2, 0.9, 1.1, 0.4, -0.7, 0.25, 0.6, -0.1], 3, 3]]}]
*/
