// Second derivatives with the plugin: energy_dir calls energy_grad, which
// only the plugin defines; its own gradient (the Hessian-vector product) is
// generated in the same compile and checked against central finite
// differences of energy_grad.
#include <unfad/unfad.h>
#include <cmath>
#include <vector>
#include "fdcheck.h"

UNFAD_GRADIENT double energy(const double* x, int n) {
  double s = 0.0;
  for (int i = 0; i + 1 < n; ++i) s += std::sin(x[i] * x[i + 1]) + x[i] * x[i] * x[i + 1];
  return s;
}

UNFAD_GRADIENT_WRT(x) double energy_dir(const double* x, const double* v, int n) {
  std::vector<double> g(n, 0.0);
  energy_grad(x, n, g.data());
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += g[i] * v[i];
  return s;
}

int main() {
  int unused_after_the_blocks; // line 25: -Wall must point here
  const int n = 4;
  double x[n] = {0.3, -0.7, 1.1, 0.5}, v[n] = {1.0, -0.5, 0.25, 2.0}, hv[n] = {0, 0, 0, 0};
  energy_dir_grad(x, v, n, hv);
  int bad = 0;
  for (int k = 0; k < n; ++k) { // (H v)_k = d/dx_k (v . grad energy)
    const double h = 1e-5, keep = x[k];
    x[k] = keep + h;
    const double up = energy_dir(x, v, n);
    x[k] = keep - h;
    const double down = energy_dir(x, v, n);
    x[k] = keep;
    bad += fd_check("(H v)_k", hv[k], (up - down) / (2 * h));
  }
  std::printf("%s\n", bad ? "FAILED" : "PASSED");
  return bad;
}
