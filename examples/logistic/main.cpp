// Logistic regression on a generated data set (fixed seed), with the gradient
// that the unfad clang plugin defined in model.cpp. Prints (a) a
// finite-difference check of the gradient, (b) the loss falling and the final
// accuracy, (c) the gradient/primal time ratio. Exits non-zero when a check
// fails.
#include "logistic.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

namespace {

struct Rng { // deterministic across standard libraries
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
  const int n = 2000, d = 8;
  const double lambda = 1e-3;

  // Data: Gaussian features, labels drawn from a known logistic model.
  Rng rng(2024);
  std::vector<double> w_true(d);
  for (int j = 0; j < d; ++j)
    w_true[j] = 1.5 * rng.normal();
  const double b_true = -0.5;
  std::vector<double> X(n * d), y(n);
  for (int i = 0; i < n; ++i) {
    double z = b_true;
    for (int j = 0; j < d; ++j) {
      X[i * d + j] = rng.normal();
      z += w_true[j] * X[i * d + j];
    }
    y[i] = rng.uniform() < 1.0 / (1.0 + std::exp(-z)) ? 1.0 : 0.0;
  }

  // (a) The gradient against central differences, at a non-trivial point.
  std::vector<double> w(d), gw(d, 0.0);
  for (int j = 0; j < d; ++j)
    w[j] = 0.3 * rng.normal();
  double b = 0.1, gb = 0.0;
  const double f0 = logistic_loss_grad(w.data(), b, X.data(), y.data(), n, d, lambda, gw.data(), &gb);
  const double h = 1e-3;
  auto fd = [&](int p) { // p == d is b
    auto at = [&](double s) {
      std::vector<double> wp = w;
      double bp = b;
      (p < d ? wp[p] : bp) += s * h;
      return logistic_loss(wp.data(), bp, X.data(), y.data(), n, d, lambda);
    };
    return (at(-2) - 8 * at(-1) + 8 * at(1) - at(2)) / (12 * h);
  };
  double err = 0.0;
  for (int p = 0; p <= d; ++p) {
    const double g = p < d ? gw[p] : gb, f = fd(p);
    err = std::max(err, std::fabs(g - f) / std::max(1.0, std::fabs(f)));
  }
  std::printf("gradient check (%d weights + bias): loss = %.10f\n", d, f0);
  std::printf("  max relative error vs central differences: %.2e %s\n", err,
              err < 1e-6 ? "OK" : "MISMATCH");
  if (!(err < 1e-6))
    return 1;

  // (b) Gradient descent from zero.
  std::printf("\ngradient descent:\n");
  std::fill(w.begin(), w.end(), 0.0);
  b = 0.0;
  const double start = logistic_loss(w.data(), b, X.data(), y.data(), n, d, lambda);
  double f = start;
  for (int it = 0; it <= 300; ++it) {
    std::fill(gw.begin(), gw.end(), 0.0);
    gb = 0.0;
    f = logistic_loss_grad(w.data(), b, X.data(), y.data(), n, d, lambda, gw.data(), &gb);
    if (it % 30 == 0)
      std::printf("  iter %3d  loss %.8f\n", it, f);
    for (int j = 0; j < d; ++j)
      w[j] -= 1.0 * gw[j];
    b -= 1.0 * gb;
  }
  int correct = 0;
  for (int i = 0; i < n; ++i) {
    double z = b;
    for (int j = 0; j < d; ++j)
      z += w[j] * X[i * d + j];
    correct += (z > 0) == (y[i] > 0.5);
  }
  const double acc = double(correct) / n;
  std::printf("final loss %.8f, training accuracy %.2f%% (%d/%d)\n", f, 100 * acc, correct, n);
  std::printf("bias: fitted %+.3f, true %+.3f\n", b, b_true);
  if (!(f < start - 0.1) || !(acc > 0.8)) {
    std::printf("the loss did not fall enough or the accuracy is too low\n");
    return 1;
  }

  // (c) Gradient/primal time ratio, best of 5 repetitions of 200 calls each.
  const int calls = 200;
  volatile double sink = 0;
  double tp = 1e30, tg = 1e30;
  for (int rep = 0; rep < 5; ++rep) {
    tp = std::min(tp, seconds([&] {
      double s = 0;
      for (int i = 0; i < calls; ++i)
        s += logistic_loss(w.data(), b, X.data(), y.data(), n, d, lambda);
      sink = s;
    }));
    tg = std::min(tg, seconds([&] {
      double s = 0;
      for (int i = 0; i < calls; ++i) {
        std::fill(gw.begin(), gw.end(), 0.0);
        gb = 0.0;
        s += logistic_loss_grad(w.data(), b, X.data(), y.data(), n, d, lambda, gw.data(), &gb) + gb;
      }
      sink = s;
    }));
  }
  (void)sink;
  std::printf("\ntime per call: loss %.1f us, loss_grad %.1f us, gradient/primal ratio %.2f\n",
              1e6 * tp / calls, 1e6 * tg / calls, tg / tp);
  return 0;
}
