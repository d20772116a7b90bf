// Objective functions of the gradient benchmark, in plain C++. The build
// runs `unfad -o` on this file; the benchmark times f and f_grad.
#include <unfad/unfad.h>

#include <vector>

#include <cmath>

UNFAD_GRADIENT double sum_of_squares(const double* x, int n) {
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += x[i] * x[i];
  return s;
}

UNFAD_GRADIENT double rosenbrock(const double* x, int n) {
  double s = 0.0;
  for (int i = 0; i + 1 < n; ++i) {
    const double a = x[i + 1] - x[i] * x[i];
    const double b = 1.0 - x[i];
    s += 100.0 * a * a + b * b;
  }
  return s;
}

UNFAD_GRADIENT double product(const double* x, int n) {
  double p = 1.0;
  for (int i = 0; i < n; ++i) p *= x[i];
  return p;
}

UNFAD_GRADIENT double horner(const double* c, int n, double x) {
  double p = 0.0;
  for (int i = n - 1; i >= 0; --i) p = p * x + c[i];
  return p;
}

// |A x - b|^2 with A row-major m x n.
UNFAD_GRADIENT double least_squares(const double* A, const double* b, const double* x, int m, int n) {
  double s = 0.0;
  for (int i = 0; i < m; ++i) {
    double r = -b[i];
    for (int j = 0; j < n; ++j) r += A[i * n + j] * x[j];
    s += r * r;
  }
  return s;
}

UNFAD_GRADIENT double log_sum_exp(const double* x, int n) {
  double m = x[0];
  for (int i = 1; i < n; ++i) m = std::fmax(m, x[i]);
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += std::exp(x[i] - m);
  return m + std::log(s);
}

// Soft-sphere pair energy of n particles in 3-D: sum over i < j of 1/(r^2 + 1).
// The same energy over an array of structs: the gradient's d_p[i].x += ...
// is the flat version's d_p[3 * i] += ..., at the same cost.
struct Vec3 {
  double x, y, z;
};

UNFAD_GRADIENT double pairwise_energy_vec3(const std::vector<Vec3>& p) {
  const int n = static_cast<int>(p.size());
  double e = 0.0;
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < n; ++j) {
      const double dx = p[i].x - p[j].x;
      const double dy = p[i].y - p[j].y;
      const double dz = p[i].z - p[j].z;
      e += 1.0 / (dx * dx + dy * dy + dz * dz + 1.0);
    }
  }
  return e;
}

UNFAD_GRADIENT double pairwise_energy(const double* p, int n) {
  double e = 0.0;
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < n; ++j) {
      const double dx = p[3 * i] - p[3 * j];
      const double dy = p[3 * i + 1] - p[3 * j + 1];
      const double dz = p[3 * i + 2] - p[3 * j + 2];
      e += 1.0 / (dx * dx + dy * dy + dz * dz + 1.0);
    }
  }
  return e;
}

// Log-density of one point under one diagonal Gaussian component (up to a
// constant): log w - sum_d (log s_d + (x_d - mu_d)^2 / (2 s_d^2)).
static double component_log_density(const double* x, const double* mu, const double* logs, double logw, int d,
                                    int xo, int ko) {
  double q = logw;
  for (int j = 0; j < d; ++j) {
    const double z = (x[xo + j] - mu[ko + j]) * std::exp(-logs[ko + j]);
    q -= logs[ko + j] + 0.5 * z * z;
  }
  return q;
}

// Negative log-likelihood of a diagonal Gaussian mixture (n points, k
// components, dimension d), with log-sum-exp over the components.
UNFAD_GRADIENT double mixture_nll(const double* x, const double* mu, const double* logs, const double* logw, int n,
                                  int k, int d) {
  double nll = 0.0;
  for (int i = 0; i < n; ++i) {
    double m = -1e300;
    for (int c = 0; c < k; ++c) m = std::fmax(m, component_log_density(x, mu, logs, logw[c], d, i * d, c * d));
    double s = 0.0;
    for (int c = 0; c < k; ++c) s += std::exp(component_log_density(x, mu, logs, logw[c], d, i * d, c * d) - m);
    nll -= m + std::log(s);
  }
  return nll;
}

// A small recurrent network: the hidden state h (H values) is rewritten at
// every one of T steps; the loss reads the final state.
UNFAD_GRADIENT double rnn_loss(const double* W, const double* U, const double* b, const double* v, const double* x,
                               int H, int T) {
  std::vector<double> h(H, 0.0);
  std::vector<double> hn(H, 0.0);
  for (int t = 0; t < T; ++t) {
    for (int j = 0; j < H; ++j) {
      double a = b[j] + U[j] * x[t];
      for (int k = 0; k < H; ++k) a += W[j * H + k] * h[k];
      hn[j] = std::tanh(a);
    }
    for (int j = 0; j < H; ++j) h[j] = hn[j];
  }
  double loss = 0.0;
  for (int j = 0; j < H; ++j) loss += v[j] * h[j];
  return loss;
}

// Nested accumulation into a local array (issue 11): every vertex adds into
// its 3 coordinates, reading those the previous vertex left. The loop over
// vertices reads and rewrites `pos` in an inner loop: its gradient logs the
// elements it overwrites, so gradient/primal stays the same as n grows.
UNFAD_GRADIENT double nested_accumulation(const double* x, int n) {
  std::vector<double> pos(3 * n, 0.0);
  for (int v = 0; v < n; ++v) {
    const int u = v > 0 ? v - 1 : 0;
    for (int i = 0; i < 3; ++i) pos[3 * v + i] += x[3 * v + i] + 0.5 * std::sin(pos[3 * u + i]);
  }
  double e = 0.0;
  for (int k = 0; k < 3 * n; ++k) e += pos[k] * pos[k];
  return e;
}
