// Estimates the stiffness k, damping c and initial state (x0, v0) of a damped
// oscillator from 50 noisy observations (fixed seed), with the gradient that
// `unfad -i` wrote into ode.cpp (differentiated through the RK4 loop).
// Prints (a) a finite-difference check of the gradient, (b) the loss falling,
// (c) the gradient/primal time ratio. Exits non-zero when a check fails.
#include "ode.h"

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
  const int nobs = 50, every = 10;
  const double dt = 0.01; // observations every 0.1 time units, up to t = 5
  const double truth[4] = {4.0, 0.3, 1.0, 0.0}; // k, c, x0, v0
  const char* names[4] = {"k", "c", "x0", "v0"};

  // Observations: the exact solution of x'' = -k x - c x' plus noise.
  Rng rng(7);
  std::vector<double> obs(nobs);
  {
    const double k = truth[0], c = truth[1], x0 = truth[2], v0 = truth[3];
    const double a = 0.5 * c, w = std::sqrt(k - a * a); // underdamped
    for (int j = 0; j < nobs; ++j) {
      const double t = (j + 1) * every * dt;
      const double x = std::exp(-a * t) * (x0 * std::cos(w * t) + (v0 + a * x0) / w * std::sin(w * t));
      obs[j] = x + 0.02 * rng.normal();
    }
  }
  auto loss = [&](const double* p) {
    return ode_loss(p[0], p[1], p[2], p[3], obs.data(), nobs, every, dt);
  };
  auto loss_grad = [&](const double* p, double* g) {
    g[0] = g[1] = g[2] = g[3] = 0.0;
    return ode_loss_grad(p[0], p[1], p[2], p[3], obs.data(), nobs, every, dt, &g[0], &g[1], &g[2],
                         &g[3]);
  };

  double p[4] = {3.0, 0.1, 0.7, 0.4}; // initial guess
  double g[4];

  // (a) The gradient against central differences (4-point stencil).
  const double f0 = loss_grad(p, g);
  double err = 0.0;
  std::printf("gradient check at k=%.2f c=%.2f x0=%.2f v0=%.2f: loss = %.10f\n", p[0], p[1], p[2],
              p[3], f0);
  for (int i = 0; i < 4; ++i) {
    const double h = 1e-3;
    auto at = [&](double s) {
      double q[4] = {p[0], p[1], p[2], p[3]};
      q[i] += s * h;
      return loss(q);
    };
    const double fd = (at(-2) - 8 * at(-1) + 8 * at(1) - at(2)) / (12 * h);
    const double e = std::fabs(g[i] - fd) / std::max(1.0, std::fabs(fd));
    std::printf("  d/d%-2s  unfad %+.10f  finite differences %+.10f\n", names[i], g[i], fd);
    err = std::max(err, e);
  }
  std::printf("  max relative error: %.2e %s\n", err, err < 1e-6 ? "OK" : "MISMATCH");
  if (!(err < 1e-6))
    return 1;

  // (b) Adam.
  std::printf("\nAdam:\n");
  const double lr = 0.02, b1 = 0.9, b2 = 0.999, eps = 1e-8;
  double m[4] = {0, 0, 0, 0}, v[4] = {0, 0, 0, 0};
  double f = f0;
  const int iters = 800;
  for (int it = 1; it <= iters; ++it) {
    f = loss_grad(p, g);
    if (it == 1 || it % 100 == 0)
      std::printf("  iter %4d  loss %.8f  k %.4f  c %.4f  x0 %+.4f  v0 %+.4f\n", it, f, p[0], p[1],
                  p[2], p[3]);
    for (int i = 0; i < 4; ++i) {
      m[i] = b1 * m[i] + (1 - b1) * g[i];
      v[i] = b2 * v[i] + (1 - b2) * g[i] * g[i];
      const double mh = m[i] / (1 - std::pow(b1, it)), vh = v[i] / (1 - std::pow(b2, it));
      p[i] -= lr * mh / (std::sqrt(vh) + eps);
    }
  }
  f = loss(p);
  std::printf("final loss %.8f\n", f);
  for (int i = 0; i < 4; ++i)
    std::printf("  %-2s  fitted %+.4f  true %+.4f\n", names[i], p[i], truth[i]);
  if (!(f < 0.1 * f0)) {
    std::printf("the loss did not fall\n");
    return 1;
  }

  // (c) Gradient/primal time ratio, best of 5 repetitions of 2000 calls each
  //     (both functions are in ode.cpp, another translation unit).
  const int calls = 2000;
  volatile double sink = 0;
  double tp = 1e30, tg = 1e30;
  for (int rep = 0; rep < 5; ++rep) {
    tp = std::min(tp, seconds([&] {
      double s = 0;
      for (int i = 0; i < calls; ++i)
        s += loss(p);
      sink = s;
    }));
    tg = std::min(tg, seconds([&] {
      double s = 0;
      for (int i = 0; i < calls; ++i)
        s += loss_grad(p, g) + g[0];
      sink = s;
    }));
  }
  (void)sink;
  std::printf("\ntime per call: ode_loss %.2f us, ode_loss_grad %.2f us, gradient/primal ratio %.2f\n",
              1e6 * tp / calls, 1e6 * tg / calls, tg / tp);
  return 0;
}
