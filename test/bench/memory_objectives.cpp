// Benchmark objectives of issue 11 (real C++ memory), written the way C++
// programmers write them: row pointers into flat arrays, small fixed-size
// local arrays as state, in-place accumulation. (The determinant by minors,
// whose recursion modifies and restores an index array it was given, waits
// for in/out array parameters.) `unfad -o` differentiates this file for the
// benchmark (memory_bench.cpp times f against f_grad).
#include <unfad/unfad.h>

#include <cmath>
#include <vector>

// A recurrent network whose hidden state is a fixed-size local array
// overwritten every step; squared error of a linear read-out against the
// next input.
UNFAD_GRADIENT double rnn_fixed_state(const double *W, const double *U, const double *b, const double *v,
                                      const double *x, int T) {
  constexpr int H = 8;
  double h[H] = {};
  double loss = 0.0;
  for (int t = 0; t + 1 < T; ++t) {
    double next[H];
    for (int i = 0; i < H; ++i) {
      double a = b[i] + U[i] * x[t];
      for (int j = 0; j < H; ++j) a += W[i * H + j] * h[j];
      next[i] = std::tanh(a);
    }
    double y = 0.0;
    for (int i = 0; i < H; ++i) {
      h[i] = next[i];
      y += v[i] * h[i];
    }
    const double e = y - x[t + 1];
    loss += e * e;
  }
  return loss;
}

static double squared_distance(const double *a, const double *b, int d) {
  double s = 0.0;
  for (int m = 0; m < d; ++m) {
    const double t = a[m] - b[m];
    s += t * t;
  }
  return s;
}

// The k-means cost: each point's squared distance to its nearest centroid.
UNFAD_GRADIENT double kmeans_cost(const double *points, const double *centroids, int n, int k, int d) {
  double cost = 0.0;
  for (int i = 0; i < n; ++i) {
    const double *p = &points[i * d];
    double closest = INFINITY;
    for (int j = 0; j < k; ++j) {
      const double *c = centroids + j * d;
      closest = std::fmin(closest, squared_distance(p, c, d));
    }
    cost += closest;
  }
  return cost;
}

// Negative log-likelihood of a diagonal Gaussian mixture: row pointers into
// the data and the parameters, each component's term accumulated in place.
UNFAD_GRADIENT double gmm_rows(const double *alpha, const double *mu, const double *q, const double *x, int n, int k,
                               int d) {
  std::vector<double> term(k);
  double total = 0.0;
  for (int i = 0; i < n; ++i) {
    const double *xi = x + i * d;
    for (int c = 0; c < k; ++c) {
      const double *mc = &mu[c * d];
      const double *qc = q + c * d;
      term[c] = alpha[c];
      for (int j = 0; j < d; ++j) {
        const double z = std::exp(qc[j]) * (xi[j] - mc[j]);
        term[c] += qc[j] - 0.5 * z * z;
      }
    }
    double top = term[0];
    for (int c = 1; c < k; ++c) top = std::fmax(top, term[c]);
    double s = 0.0;
    for (int c = 0; c < k; ++c) s += std::exp(term[c] - top);
    total += top + std::log(s);
  }
  return -total;
}
