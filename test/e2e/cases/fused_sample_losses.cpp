// Losses summed over data points, each point's work done in scratch buffers
// the function allocates once (`diff`, `h`, `z`): the gradient runs one loop
// over the points, each point's adjoint right after its value (loop fusion
// with buffers each iteration fills before it reads them, their cotangents
// left zero, per-point tapes). Also the shapes that must not fuse: a buffer
// read after the loop, a buffer only partly refilled (what an iteration
// reads was left by the one before). Checked against finite differences.
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

// A mixture's log-likelihood: per point and component a scratch difference
// and its scaled copy, the components' scores in a scratch vector.
UNFAD_GRADIENT_WRT(mu, logs)
double mixture(const std::vector<double>& mu, const std::vector<double>& logs, const std::vector<double>& x, int d) {
  const int k = static_cast<int>(mu.size()) / d;
  const int n = static_cast<int>(x.size()) / d;
  std::vector<double> diff(d), scaled(d), score(k);
  double total = 0;
  for (int i = 0; i < n; ++i) {
    const double* xi = &x[i * d];
    for (int c = 0; c < k; ++c) {
      for (int j = 0; j < d; ++j) {
        diff[j] = xi[j] - mu[c * d + j];
        scaled[j] = std::exp(logs[c * d + j]) * diff[j];
      }
      for (int j = 1; j < d; ++j) scaled[j] += 0.5 * diff[j - 1];
      double sq = 0;
      for (int j = 0; j < d; ++j) sq += scaled[j] * scaled[j];
      score[c] = -0.5 * sq;
    }
    total += log_sum_exp(score.data(), k);
  }
  return total;
}

// A one-hidden-layer network's squared error over samples, the hidden
// activations in a scratch vector.
UNFAD_GRADIENT_WRT(W, v)
double mlp_loss(const std::vector<double>& W, const std::vector<double>& v, const std::vector<double>& X,
                const std::vector<double>& y) {
  const std::size_t hidden = v.size(), in = W.size() / hidden, n = y.size();
  std::vector<double> h(hidden);
  double loss = 0;
  for (std::size_t s = 0; s < n; ++s) {
    for (std::size_t j = 0; j < hidden; ++j) {
      double a = 0;
      for (std::size_t k = 0; k < in; ++k) a += W[j * in + k] * X[s * in + k];
      h[j] = std::tanh(a);
    }
    double out = 0;
    for (std::size_t j = 0; j < hidden; ++j) out += v[j] * h[j];
    loss += (out - y[s]) * (out - y[s]);
  }
  return loss / static_cast<double>(n);
}

// The scratch buffer is read after the loop: the last point's activations.
UNFAD_GRADIENT_WRT(w)
double read_after(const std::vector<double>& w, const std::vector<double>& X, int n) {
  const int m = static_cast<int>(w.size());
  std::vector<double> z(m);
  double s = 0;
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < m; ++j) z[j] = std::sin(w[j] * X[i * m + j]);
    double t = 0;
    for (int j = 0; j < m; ++j) t += z[j] * z[j];
    s += std::sqrt(t + 1.0);
  }
  return s + z[0] * z[m - 1];
}

// Only part of the buffer is refilled: z[0] carries from one point to the next.
UNFAD_GRADIENT_WRT(w)
double partly_refilled(const std::vector<double>& w, const std::vector<double>& X, int n) {
  const int m = static_cast<int>(w.size());
  std::vector<double> z(m, 0.5);
  double s = 0;
  for (int i = 0; i < n; ++i) {
    for (int j = 1; j < m; ++j) z[j] = std::sin(w[j] * X[i * m + j]) + z[0];
    z[0] = z[m - 1] * w[0];
    double t = 0;
    for (int j = 0; j < m; ++j) t += z[j] * z[j];
    s += std::log(t + 1.0);
  }
  return s;
}
// Per-point losses with a learned scalar (a scale, a temperature): the
// adjoint sweep sums the scalar's cotangent over the points, a state that
// only accumulates; it becomes a += into a one-element array, and the sweep
// fuses with the loop like the stateless ones.
UNFAD_GRADIENT_WRT(p, scale)
double scaled_fit(const std::vector<double>& p, const std::vector<double>& y, int m, double scale) {
  const int n = static_cast<int>(y.size()) / m;
  std::vector<double> r(m);
  double total = 0;
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < m; ++j) r[j] = p[0] * j + p[1] - y[i * m + j];
    double s = 0;
    for (int j = 0; j < m; ++j) s += std::log(1 + std::exp(scale * r[j]));
    total += s;
  }
  return total;
}

UNFAD_GRADIENT_WRT(w, temperature, bias)
double tempered(const std::vector<double>& w, const std::vector<double>& X, const std::vector<int>& label, int k,
                double temperature, double bias) {
  const int d = static_cast<int>(w.size()) / k, n = static_cast<int>(label.size());
  std::vector<double> z(k);
  double loss = 0;
  for (int i = 0; i < n; ++i) {
    for (int c = 0; c < k; ++c) {
      double a = bias;
      for (int j = 0; j < d; ++j) a += w[c * d + j] * X[i * d + j];
      z[c] = a / temperature;
    }
    loss += log_sum_exp(z.data(), k) - z[label[i]];
  }
  return loss;
}

/* e2e
[{"function": "scaled_fit", "points": [[[0.5, -0.2], [0.3, 0.1, -0.4, 0.8, 0.2, -0.1], 3, 1.5]]},
 {"function": "tempered", "points": [[[0.1, -0.2, 0.3, 0.5, -0.5, 1.0], [0.4, 0.1, -0.6, 0.9, 1.2, -0.3, 0.0, 0.5], [0, 2, 1, 2], 3, 1.7, 0.25]]},
 {"function": "mixture", "points": [[[0.1, -0.4, 0.7, 0.2, -0.3, 0.5], [0.2, -0.1, 0.3, 0.05, -0.2, 0.1],
                                     [0.3, -0.2, 0.9, 1.1, -0.5, 0.4, 0.0, 0.3, 0.6, -0.7, 0.2, 0.8], 3]]},
 {"function": "mlp_loss", "points": [[[0.3, -0.2, 0.5, 0.1, -0.4, 0.6], [0.7, -0.3, 0.2],
                                      [0.5, -1.0, 0.3, 0.8, -0.2, 0.4, 1.1, 0.0], [0.3, -0.1, 0.6, 0.2]]]},
 {"function": "read_after", "points": [[[0.3, -0.7, 1.2], [0.5, 1.0, -0.4, 0.9, 0.2, -1.3, 0.7, 0.6, -0.8], 3]]},
 {"function": "partly_refilled", "points": [[[0.3, -0.7, 1.2], [0.5, 1.0, -0.4, 0.9, 0.2, -1.3, 0.7, 0.6, -0.8], 3]]}]
*/
