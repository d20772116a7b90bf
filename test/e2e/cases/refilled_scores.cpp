// Per-point scores in a scratch vector read by a log-sum-exp helper: the
// adjoint of a point runs in the same iteration as its forward work, where
// refilling the scores for the helper's pullback would store what they
// hold (the refill goes, dead-stores). Around that rule: an offset the
// point loop updates after the helper read the scores (the refill's
// expression reads it: the scores are not what it would store), and scores
// the loop rescales in place after the helper (the refill is needed).
// Checked against finite differences.
#include <unfad/unfad.h>

#include <cmath>
#include <vector>

static double lse(const double* x, int n) {
  double a = x[0];
  for (int i = 1; i < n; ++i)
    if (x[i] > a) a = x[i];
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += std::exp(x[i] - a);
  return a + std::log(s);
}

UNFAD_GRADIENT_WRT(alpha, mu, q)
double mixture(int d, int k, int n, const double* alpha, const double* mu, const double* q, const double* x) {
  std::vector<double> qdiag(k * d), sumq(k), qdiff(d), beta(k);
  for (int c = 0; c < k; ++c) {
    sumq[c] = 0.0;
    for (int j = 0; j < d; ++j) {
      sumq[c] += q[c * d + j];
      qdiag[c * d + j] = std::exp(q[c * d + j]);
    }
  }
  double total = 0.0;
  for (int i = 0; i < n; ++i) {
    for (int c = 0; c < k; ++c) {
      for (int j = 0; j < d; ++j) qdiff[j] = qdiag[c * d + j] * (x[i * d + j] - mu[c * d + j]);
      double sq = 0.0;
      for (int j = 0; j < d; ++j) sq += qdiff[j] * qdiff[j];
      beta[c] = alpha[c] + sumq[c] - 0.5 * sq;
    }
    total += lse(beta.data(), k);
  }
  return total;
}

UNFAD_GRADIENT_WRT(alpha, mu)
double drifting(int d, int k, int n, const double* alpha, const double* mu, const double* x) {
  std::vector<double> offset(k, 0.0), diff(d), beta(k);
  double total = 0.0;
  for (int i = 0; i < n; ++i) {
    for (int c = 0; c < k; ++c) {
      for (int j = 0; j < d; ++j) diff[j] = x[i * d + j] - mu[c * d + j];
      double sq = 0.0;
      for (int j = 0; j < d; ++j) sq += diff[j] * diff[j];
      beta[c] = alpha[c] + offset[c] - 0.5 * sq;
    }
    total += lse(beta.data(), k);
    for (int c = 0; c < k; ++c) offset[c] += 0.1 * std::tanh(beta[c]);
  }
  return total;
}

UNFAD_GRADIENT_WRT(alpha, mu)
double rescaled(int d, int k, int n, const double* alpha, const double* mu, const double* x) {
  std::vector<double> diff(d), beta(k);
  double total = 0.0;
  for (int i = 0; i < n; ++i) {
    for (int c = 0; c < k; ++c) {
      for (int j = 0; j < d; ++j) diff[j] = x[i * d + j] - mu[c * d + j];
      double sq = 0.0;
      for (int j = 0; j < d; ++j) sq += diff[j] * diff[j];
      beta[c] = alpha[c] - 0.5 * sq;
    }
    total += lse(beta.data(), k);
    for (int c = 0; c < k; ++c) beta[c] *= 0.5;
    total += 0.1 * lse(beta.data(), k);
  }
  return total;
}

/* e2e
[{"function": "mixture",
  "points": [[2, 3, 4, [0.1, -0.2, 0.3], [0.5, -0.5, 1.0, 0.2, -0.3, 0.8], [0.1, 0.2, -0.1, 0.05, 0.3, -0.2],
              [0.4, 0.1, -0.6, 0.9, 1.2, -0.3, 0.0, 0.5]]]},
 {"function": "drifting",
  "points": [[2, 3, 4, [0.1, -0.2, 0.3], [0.5, -0.5, 1.0, 0.2, -0.3, 0.8], [0.4, 0.1, -0.6, 0.9, 1.2, -0.3, 0.0, 0.5]]]},
 {"function": "rescaled",
  "points": [[2, 3, 4, [0.1, -0.2, 0.3], [0.5, -0.5, 1.0, 0.2, -0.3, 0.8], [0.4, 0.1, -0.6, 0.9, 1.2, -0.3, 0.0, 0.5]]]}]
*/
