// A helper called once per data point, its value summed: once the point's
// adjoint runs in the same iteration as its forward work, the call and its
// pullback are one run of the helper's value_and_pullback (its forward
// work done once). The shapes around it: a helper with scalar parameters
// (their cotangents come back through pointers beside the value), a value
// used nonlinearly (its cotangent needs the value: two runs), and an array
// the helper read rewritten before the pullback (two runs). Checked against
// finite differences. (Each function calls its helper twice: a helper
// with one caller is inlined.)
#include <unfad/unfad.h>

#include <cmath>
#include <vector>

static double log_sum_exp(const double* v, int n) {
  double top = v[0];
  for (int i = 1; i < n; ++i) top = std::max(top, v[i]);
  double s = 0;
  for (int i = 0; i < n; ++i) s += std::exp(v[i] - top);
  return top + std::log(s);
}

static double soft_huber(const double* r, int n, double delta, double scale) {
  double s = 0;
  for (int i = 0; i < n; ++i) s += delta * delta * (std::sqrt(1.0 + (r[i] / delta) * (r[i] / delta)) - 1.0);
  return scale * s;
}

UNFAD_GRADIENT_WRT(w)
double softmax_loss(const std::vector<double>& w, const std::vector<double>& X, const std::vector<int>& label, int k) {
  const int d = static_cast<int>(w.size()) / k, n = static_cast<int>(label.size());
  std::vector<double> z(k);
  double loss = 0;
  for (int i = 0; i < n; ++i) {
    for (int c = 0; c < k; ++c) {
      double a = 0;
      for (int j = 0; j < d; ++j) a += w[c * d + j] * X[i * d + j];
      z[c] = a;
    }
    loss += log_sum_exp(z.data(), k) - z[label[i]];
  }
  return loss / n + 0.01 * log_sum_exp(w.data(), k); // (a second call: the helper is not inlined)
}

UNFAD_GRADIENT_WRT(p, delta, scale)
double robust_fit(const std::vector<double>& p, const std::vector<double>& t, const std::vector<double>& y, int m,
                  double delta, double scale) {
  const int n = static_cast<int>(y.size()) / m;
  std::vector<double> r(m);
  double total = 0;
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < m; ++j) r[j] = p[0] * std::exp(-p[1] * t[i * m + j]) - y[i * m + j];
    total += soft_huber(r.data(), m, delta, scale);
  }
  return total + soft_huber(p.data(), 2, delta, 0.1);
}

UNFAD_GRADIENT_WRT(w)
double squared_scores(const std::vector<double>& w, const std::vector<double>& X, int k) {
  const int d = static_cast<int>(w.size()) / k, n = static_cast<int>(X.size()) / d;
  std::vector<double> z(k);
  double loss = 0;
  for (int i = 0; i < n; ++i) {
    for (int c = 0; c < k; ++c) {
      double a = 0;
      for (int j = 0; j < d; ++j) a += w[c * d + j] * X[i * d + j];
      z[c] = a;
    }
    const double v = log_sum_exp(z.data(), k);
    loss += v * v;
  }
  return loss + log_sum_exp(w.data(), k);
}

UNFAD_GRADIENT_WRT(w)
double shifted_scores(const std::vector<double>& w, const std::vector<double>& X, int k) {
  const int d = static_cast<int>(w.size()) / k, n = static_cast<int>(X.size()) / d;
  std::vector<double> z(k);
  double loss = 0;
  for (int i = 0; i < n; ++i) {
    for (int c = 0; c < k; ++c) {
      double a = 0;
      for (int j = 0; j < d; ++j) a += w[c * d + j] * X[i * d + j];
      z[c] = a;
    }
    loss += log_sum_exp(z.data(), k);
    for (int c = 0; c < k; ++c) z[c] *= 0.5;
    loss += 0.25 * z[0] * z[0];
  }
  return loss + log_sum_exp(w.data(), k);
}

// A per-point weight read after the call: its read moves up before the
// call with the pullback.
UNFAD_GRADIENT_WRT(w)
double weighted(const std::vector<double>& w, const std::vector<double>& X, const std::vector<double>& wt, int k) {
  const int d = static_cast<int>(w.size()) / k, n = static_cast<int>(X.size()) / d;
  std::vector<double> z(k);
  double loss = 0;
  for (int i = 0; i < n; ++i) {
    for (int c = 0; c < k; ++c) {
      double a = 0;
      for (int j = 0; j < d; ++j) a += w[c * d + j] * X[i * d + j];
      z[c] = a;
    }
    loss += wt[i] * log_sum_exp(z.data(), k);
  }
  return loss + log_sum_exp(w.data(), k);
}

/* e2e
[{"function": "weighted",
  "points": [[[0.1, -0.2, 0.3, 0.5, -0.5, 1.0], [0.4, 0.1, -0.6, 0.9, 1.2, -0.3], [0.5, 0.0, -1.5], 3]]},
 {"function": "softmax_loss",
  "points": [[[0.1, -0.2, 0.3, 0.5, -0.5, 1.0], [0.4, 0.1, -0.6, 0.9, 1.2, -0.3, 0.0, 0.5], [0, 2, 1, 2], 3]]},
 {"function": "robust_fit",
  "points": [[[1.5, 0.7], [0.0, 0.5, 1.0, 0.0, 0.5, 1.0], [1.4, 1.1, 0.6, 1.6, 0.9, 0.7], 3, 0.5, 1.25]]},
 {"function": "squared_scores",
  "points": [[[0.1, -0.2, 0.3, 0.5, -0.5, 1.0], [0.4, 0.1, -0.6, 0.9, 1.2, -0.3], 3]]},
 {"function": "shifted_scores",
  "points": [[[0.1, -0.2, 0.3, 0.5, -0.5, 1.0], [0.4, 0.1, -0.6, 0.9, 1.2, -0.3], 3]]}]
*/
