// Uses the gradient that unfad generated for demo::energy: gradient descent
// to the equilibrium of the hanging mass, a finite-difference check of the
// gradient, and the cost of the gradient relative to the function.
#include "energy.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

namespace {

double fd(double (*f)(double, double), double x, double y, int which) {
  // 4-point central difference.
  const double h = 1e-3 * std::max(1.0, std::fabs(which == 0 ? x : y));
  auto at = [&](double s) { return which == 0 ? f(x + s * h, y) : f(x, y + s * h); };
  return (at(-2) - 8 * at(-1) + 8 * at(1) - at(2)) / (12 * h);
}

template <class F> double seconds(F &&body) {
  const auto t0 = std::chrono::steady_clock::now();
  body();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

} // namespace

int main() {
  double x = 0.8, y = -0.6;

  // 1. The gradient against finite differences.
  double gx = 0, gy = 0;
  const double e0 = demo::energy_grad(x, y, &gx, &gy);
  const double fx = fd(demo::energy, x, y, 0), fy = fd(demo::energy, x, y, 1);
  const double err = std::max(std::fabs(gx - fx) / std::max(1.0, std::fabs(fx)),
                              std::fabs(gy - fy) / std::max(1.0, std::fabs(fy)));
  std::printf("gradient check at (%.3f, %.3f): energy = %.6f\n", x, y, e0);
  std::printf("  unfad:              (%+.10f, %+.10f)\n", gx, gy);
  std::printf("  finite differences: (%+.10f, %+.10f)\n", fx, fy);
  std::printf("  max relative error: %.2e %s\n", err, err < 1e-6 ? "OK" : "MISMATCH");
  if (err >= 1e-6)
    return 1;

  // 2. Gradient descent to the equilibrium.
  std::printf("\ngradient descent:\n");
  const double step = 0.005;
  double e = e0;
  for (int it = 0; it <= 100; ++it) {
    gx = gy = 0;
    e = demo::energy_grad(x, y, &gx, &gy);
    if (it % 10 == 0)
      std::printf("  iter %3d  energy %+.8f  at (%+.6f, %+.6f)  |grad| %.2e\n", it, e, x, y,
                  std::hypot(gx, gy));
    x -= step * gx;
    y -= step * gy;
  }
  if (!(e < e0)) {
    std::printf("energy did not fall\n");
    return 1;
  }

  // 3. Cost of the gradient relative to the function (both in energy.cpp,
  //    another translation unit, so neither is inlined here).
  const int n = 2000000;
  volatile double sink = 0;
  double tp = 1e30, tg = 1e30;
  for (int rep = 0; rep < 3; ++rep) {
    tp = std::min(tp, seconds([&] {
                    double s = 0;
                    for (int i = 0; i < n; ++i)
                      s += demo::energy(x + 1e-9 * i, y);
                    sink = s;
                  }));
    tg = std::min(tg, seconds([&] {
                    double s = 0;
                    for (int i = 0; i < n; ++i) {
                      double dx = 0, dy = 0;
                      s += demo::energy_grad(x + 1e-9 * i, y, &dx, &dy) + dx + dy;
                    }
                    sink = s;
                  }));
  }
  (void)sink;
  std::printf("\ntime per call: energy %.1f ns, energy_grad %.1f ns, gradient/primal ratio %.2f\n",
              1e9 * tp / n, 1e9 * tg / n, tg / tp);
  return 0;
}
