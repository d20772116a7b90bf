// Loops whose bodies run an inner loop that computes its values by loops or
// helper calls: the enclosing loop's forward pass tapes those values per
// (iteration, inner iteration), and its backward sweep, recomputing the inner
// loop, reads them instead of running the loops again
// (lib/ad/rev/inner_values.cpp). The shapes: a Gaussian mixture's
// per-cluster quadratic form (a triangular loop, a sum) feeding a
// log-sum-exp helper (GradBench's gmm); a helper call's value; a reversed
// inner loop whose running sum also fills an array, over a state the
// enclosing loop rewrites (each iteration's values differ: a tape read at
// the wrong position shows); a helper reading the array its inner loop
// overwrites; and an inner bound that changes with the
// enclosing iteration (not taped: recomputed as before).
#include <unfad/unfad.h>

#include <cmath>
#include <vector>

static double lse(const double* v, int k) {
  double a = v[0];
  for (int i = 1; i < k; ++i)
    if (v[i] > a) a = v[i];
  double s = 0.0;
  for (int i = 0; i < k; ++i) s += std::exp(v[i] - a);
  return a + std::log(s);
}

// beta[c] = alpha[c] + sum_j q[c][j] - |Q_c (x_i - mu_c)|^2 / 2, Q_c lower
// triangular with diagonal exp(q[c]) and strictly lower part l[c].
UNFAD_GRADIENT_WRT(alpha, mu, q, l)
double mixture(int d, int k, int n, const double* alpha, const double* mu, const double* q, const double* l,
               const double* x) {
  const int ls = d * (d - 1) / 2;
  std::vector<double> diff(d), qdiff(d), beta(k);
  double total = 0.0;
  for (int i = 0; i < n; ++i) {
    for (int c = 0; c < k; ++c) {
      double sumq = 0.0;
      for (int j = 0; j < d; ++j) {
        diff[j] = x[i * d + j] - mu[c * d + j];
        qdiff[j] = std::exp(q[c * d + j]) * diff[j];
        sumq += q[c * d + j];
      }
      int li = 0;
      for (int col = 0; col < d; ++col)
        for (int row = col + 1; row < d; ++row) qdiff[row] += l[c * ls + li++] * diff[col];
      double sq = 0.0;
      for (int j = 0; j < d; ++j) sq += qdiff[j] * qdiff[j];
      beta[c] = alpha[c] + sumq - 0.5 * sq;
    }
    total += lse(beta.data(), k);
  }
  return total;
}

static double dist2(const double* a, const double* b, int d) {
  double s = 0.0;
  for (int j = 0; j < d; ++j) s += (a[j] - b[j]) * (a[j] - b[j]);
  return s;
}

// The inner body's value is a helper's result.
UNFAD_GRADIENT_WRT(mu)
double soft_assign(int d, int k, int n, const double* mu, const double* x) {
  std::vector<double> e(k);
  double total = 0.0;
  for (int i = 0; i < n; ++i) {
    for (int c = 0; c < k; ++c) e[c] = -std::sqrt(1.0 + dist2(x + i * d, mu + c * d, d));
    total += lse(e.data(), k) * (1.0 + 0.25 * i);
  }
  return total;
}

// A reversed inner loop over a state u the enclosing loop rewrites; the
// running sum acc (a loop value) also fills v, which the enclosing body
// reads after the inner loop.
UNFAD_GRADIENT_WRT(a, w)
double sweeps(const double* a, const double* w, int m, int steps) {
  std::vector<double> u(a, a + m), v(m), g(m);
  double total = 0.0;
  for (int t = 0; t < steps; ++t) {
    for (int c = m - 1; c >= 0; --c) {
      double acc = 0.0;
      for (int j = 0; j < m; ++j) {
        acc += std::sin(u[j] * w[j] + c);
        v[j] = acc;
      }
      g[c] = std::tanh(acc) * u[c];
    }
    for (int c = 0; c < m; ++c) u[c] = 0.5 * u[c] + 0.25 * g[c] + 0.125 * v[c];
    total += lse(g.data(), m);
  }
  return total;
}

// The helper taped in the inner loop reads the array the inner loop
// overwrites: its pullback needs each iteration's elements back (found by
// the fuzzer, seed 1 program 94: the recomputation no longer read u, so
// nothing put u's overwritten elements back).
static double peek(const double* u, int n, double a) {
  double s = a;
  for (int j = 0; j < n; ++j) s += 0.3 * u[j] * u[j];
  return std::sin(s);
}

UNFAD_GRADIENT_WRT(x) double overwrite_read(const double* x, int n, int steps) {
  std::vector<double> r(x, x + n);
  double total = 0.0;
  for (int t = 0; t < steps; ++t) {
    std::vector<double> u(n);
    for (int i = n - 1; i >= 0; --i) u[i] = std::tanh(r[i] - peek(u.data(), n, r[i]));
    for (int i = 0; i < n; ++i) r[i] = u[i] + 0.5 * x[i];
    total += r[0] * r[n - 1];
  }
  return total;
}

// The inner bound changes with the enclosing iteration: recomputed.
UNFAD_GRADIENT_WRT(mu)
double growing(int d, int k, int n, const double* mu, const double* x) {
  std::vector<double> e(k);
  double total = 0.0;
  for (int i = 0; i < n; ++i) {
    const int kk = 1 + i % k;
    for (int c = 0; c < kk; ++c) {
      double s = 0.0;
      for (int j = 0; j < d; ++j) s += (x[i * d + j] - mu[c * d + j]) * (x[i * d + j] - mu[c * d + j]);
      e[c] = -s;
    }
    total += lse(e.data(), kk);
  }
  return total;
}

/* e2e
[{"function": "mixture",
  "points": [[3, 2, 3, [0.3, -0.2], [0.1, 0.4, -0.3, 1.0, 0.2, -0.5], [0.05, -0.1, 0.2, 0.1, -0.15, 0.3],
              [0.4, -0.3, 0.2, 0.1, 0.5, -0.2],
              [0.5, -0.25, 1.0, 0.75, 0.0, -1.0, 1.5, 0.25, -0.5]],
             [2, 3, 2, [0.1, -0.4, 0.25], [0.2, -0.1, -0.6, 0.3, 0.9, 0.4], [0.1, 0.0, -0.2, 0.3, 0.05, -0.1],
              [0.3, -0.4, 0.6], [0.25, -0.75, 1.25, 0.5]]]},
 {"function": "soft_assign",
  "points": [[2, 3, 4, [0.1, -0.2, 0.7, 0.3, -0.5, 0.4], [0.5, 0.25, -0.3, 0.8, 1.0, -1.0, 0.0, 0.4]]]},
 {"function": "sweeps",
  "points": [[[0.3, -0.5, 0.8], [0.7, 0.2, -0.4], 3, 3], [[0.1, 0.9], [-0.3, 0.5], 2, 1], [[0.2], [0.4], 1, 0]]},
 {"function": "overwrite_read",
  "points": [[[0.5, -0.3, 0.8], 3, 3], [[0.2, 0.9, -0.6, 0.4], 4, 2]]},
 {"function": "growing",
  "points": [[2, 3, 5, [0.1, -0.2, 0.7, 0.3, -0.5, 0.4], [0.5, 0.25, -0.3, 0.8, 1.0, -1.0, 0.0, 0.4, 0.2, -0.1]]]}]
*/
