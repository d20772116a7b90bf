// Fits a 3-component Gaussian mixture to 500 generated 2-D points with Adam,
// using the gradient that the CMake step generated (gmm::nll_grad).
// Prints (a) a finite-difference check of the gradient, (b) the negative
// log-likelihood falling, (c) the gradient/primal time ratio. Exits non-zero
// when the gradient check fails or the objective does not fall.
#include "gmm.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

namespace {

// Deterministic standard normal samples (Box-Muller over mt19937_64, whose
// output is fixed by the standard; std::normal_distribution is not).
struct Rng {
  std::mt19937_64 g;
  explicit Rng(std::uint64_t seed) : g(seed) {}
  double uniform() { return ((g() >> 11) + 0.5) * 0x1.0p-53; }
  double normal() {
    return std::sqrt(-2.0 * std::log(uniform())) * std::cos(6.283185307179586 * uniform());
  }
};

template <class F> double seconds(F&& body) {
  const auto t0 = std::chrono::steady_clock::now();
  body();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

} // namespace

int main() {
  using gmm::K;
  using gmm::kParams;

  // Data: 500 points from a known mixture.
  const int n = 500;
  const double w_true[K] = {0.5, 0.3, 0.2};
  const double mu_true[K][2] = {{-2.0, 0.0}, {2.0, 1.0}, {0.0, 3.0}};
  const double sd_true[K][2] = {{0.6, 0.9}, {0.8, 0.4}, {0.5, 0.5}};
  Rng rng(12345);
  std::vector<double> x(2 * n);
  for (int i = 0; i < n; ++i) {
    const double u = rng.uniform();
    const int c = u < w_true[0] ? 0 : u < w_true[0] + w_true[1] ? 1 : 2;
    x[2 * i] = mu_true[c][0] + sd_true[c][0] * rng.normal();
    x[2 * i + 1] = mu_true[c][1] + sd_true[c][1] * rng.normal();
  }

  // Start: equal weights, unit deviations, means spread around the data.
  std::vector<double> theta(kParams, 0.0);
  const double mu0[K][2] = {{-1.0, -1.0}, {1.0, 0.0}, {0.0, 1.0}};
  for (int c = 0; c < K; ++c)
    for (int j = 0; j < 2; ++j)
      theta[K + 2 * c + j] = mu0[c][j];

  // (a) The gradient against central differences (4-point stencil).
  std::vector<double> g(kParams, 0.0);
  const double f0 = gmm::nll_grad(theta.data(), x.data(), n, g.data());
  double err = 0.0;
  for (int p = 0; p < kParams; ++p) {
    const double h = 1e-3;
    auto at = [&](double s) {
      std::vector<double> t = theta;
      t[p] += s * h;
      return gmm::nll(t.data(), x.data(), n);
    };
    const double fd = (at(-2) - 8 * at(-1) + 8 * at(1) - at(2)) / (12 * h);
    err = std::max(err, std::fabs(g[p] - fd) / std::max(1.0, std::fabs(fd)));
  }
  std::printf("gradient check (%d parameters): nll = %.10f\n", kParams, f0);
  std::printf("  max relative error vs central differences: %.2e %s\n", err,
              err < 1e-6 ? "OK" : "MISMATCH");
  if (!(err < 1e-6))
    return 1;

  // (b) Adam.
  std::printf("\nAdam on the mean negative log-likelihood:\n");
  const double lr = 0.05, b1 = 0.9, b2 = 0.999, eps = 1e-8;
  std::vector<double> m(kParams, 0.0), v(kParams, 0.0);
  double f = f0;
  const int iters = 200;
  for (int it = 1; it <= iters; ++it) {
    std::fill(g.begin(), g.end(), 0.0);
    f = gmm::nll_grad(theta.data(), x.data(), n, g.data());
    if (it == 1 || it % 20 == 0)
      std::printf("  iter %4d  nll %.8f\n", it, f);
    for (int p = 0; p < kParams; ++p) {
      m[p] = b1 * m[p] + (1 - b1) * g[p];
      v[p] = b2 * v[p] + (1 - b2) * g[p] * g[p];
      const double mh = m[p] / (1 - std::pow(b1, it)), vh = v[p] / (1 - std::pow(b2, it));
      theta[p] -= lr * mh / (std::sqrt(vh) + eps);
    }
  }
  f = gmm::nll(theta.data(), x.data(), n);
  std::printf("  final      nll %.8f\n", f);
  double amax = theta[0], asum = 0;
  for (int c = 1; c < K; ++c) amax = std::max(amax, theta[c]);
  for (int c = 0; c < K; ++c) asum += std::exp(theta[c] - amax);
  std::printf("fitted components (weight, mean, sd):\n");
  for (int c = 0; c < K; ++c)
    std::printf("  %.3f  (%+.3f, %+.3f)  (%.3f, %.3f)\n", std::exp(theta[c] - amax) / asum,
                theta[K + 2 * c], theta[K + 2 * c + 1], std::exp(theta[3 * K + 2 * c]),
                std::exp(theta[3 * K + 2 * c + 1]));
  if (!(f < f0 - 0.1)) {
    std::printf("the objective did not fall\n");
    return 1;
  }

  // (c) Gradient/primal time ratio, best of 5 repetitions of 200 calls each
  //     (both functions live in the generated gmm.cpp, another translation unit).
  const int calls = 200;
  volatile double sink = 0;
  double tp = 1e30, tg = 1e30;
  for (int rep = 0; rep < 5; ++rep) {
    tp = std::min(tp, seconds([&] {
      double s = 0;
      for (int i = 0; i < calls; ++i)
        s += gmm::nll(theta.data(), x.data(), n);
      sink = s;
    }));
    tg = std::min(tg, seconds([&] {
      double s = 0;
      for (int i = 0; i < calls; ++i) {
        std::fill(g.begin(), g.end(), 0.0);
        s += gmm::nll_grad(theta.data(), x.data(), n, g.data()) + g[0];
      }
      sink = s;
    }));
  }
  (void)sink;
  std::printf("\ntime per call: nll %.1f us, nll_grad %.1f us, gradient/primal ratio %.2f\n",
              1e6 * tp / calls, 1e6 * tg / calls, tg / tp);
  return 0;
}
