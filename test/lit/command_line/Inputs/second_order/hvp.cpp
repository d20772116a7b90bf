// energy_dir calls energy_grad, which unfad generates; its own gradient is
// the Hessian-vector product, checked by main against central differences.
#include <unfad/unfad.h>

#include <cmath>
#include <cstdio>
#include <vector>

UNFAD_GRADIENT double energy(const double* x, int n) {
  double s = 0.0;
  for (int i = 0; i + 1 < n; ++i) s += std::sin(x[i] * x[i + 1]) + 2.0 * x[i] * x[i] * x[i + 1];
  return s;
}

DECLARATION

UNFAD_GRADIENT_WRT(x) double energy_dir(const double* x, const double* v, int n) {
  std::vector<double> g(n, 0.0);
  energy_grad(x, n, g.data());
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += g[i] * v[i];
  return s;
}

int main() {
  const int n = 4;
  double x[n] = {0.3, -0.7, 1.1, 0.5}, v[n] = {1.0, -0.5, 0.25, 2.0}, hv[n] = {0, 0, 0, 0};
  energy_dir_grad(x, v, n, hv);
  int bad = 0;
  for (int k = 0; k < n; ++k) {
    const double h = 1e-5, keep = x[k];
    x[k] = keep + h;
    const double up = energy_dir(x, v, n);
    x[k] = keep - h;
    const double down = energy_dir(x, v, n);
    x[k] = keep;
    const double fd = (up - down) / (2 * h);
    if (std::fabs(hv[k] - fd) > 1e-6 * std::fmax(1.0, std::fabs(fd))) ++bad;
  }
  std::printf("%s\n", bad ? "FAILED" : "PASSED");
  return bad;
}
