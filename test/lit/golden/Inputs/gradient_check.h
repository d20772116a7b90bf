// For golden tests that run what unfad wrote: `grad(x, d)` (an f_grad with
// its adjoint gathered into `d`) returns exactly what `f(x)` returns, and
// each d[i] matches the central difference of f at x (h = 1e-6; relative
// tolerance 1e-5). Prints the first mismatch.
#pragma once

#include <cmath>
#include <cstdio>
#include <vector>

template <class F, class G>
bool check(F f, G grad, std::vector<double> x) {
  std::vector<double> d(x.size(), 0.0);
  const double value = grad(x, d);
  if (!(value == f(x))) {
    std::printf("value %g vs %g\n", value, f(x));
    return false;
  }
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double h = 1e-6, x0 = x[i];
    x[i] = x0 + h;
    const double up = f(x);
    x[i] = x0 - h;
    const double down = f(x);
    x[i] = x0;
    const double fd = (up - down) / (2 * h);
    if (std::abs(fd - d[i]) > 1e-5 * (1 + std::abs(fd))) {
      std::printf("mismatch at %zu: %g vs %g\n", i, d[i], fd);
      return false;
    }
  }
  return true;
}
