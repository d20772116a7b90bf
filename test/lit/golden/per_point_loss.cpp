// A loss summed over data points, each point's work in scratch buffers the
// function allocates once: the gradient is one loop over the points, each
// point's adjoint computed right after its value (no second, backward loop
// over the points), the buffers and their cotangents reused by every point.
// RUN: %unfad %s -- -std=c++17 -I%unfad_include > %t.out
// RUN: grep -v '^// *[A-Z-]*:' %t.out | FileCheck %s
// RUN: grep -v '^// *[A-Z-]*:' %t.out | FileCheck %s --check-prefix=ONELOOP
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

UNFAD_GRADIENT_WRT(mu)
double mixture(const std::vector<double>& mu, const std::vector<double>& x, int d) {
  const int k = static_cast<int>(mu.size()) / d;
  const int n = static_cast<int>(x.size()) / d;
  std::vector<double> diff(d), score(k);
  double total = 0;
  for (int i = 0; i < n; ++i) {
    for (int c = 0; c < k; ++c) {
      for (int j = 0; j < d; ++j) diff[j] = x[i * d + j] - mu[c * d + j];
      double sq = 0;
      for (int j = 0; j < d; ++j) sq += diff[j] * diff[j];
      score[c] = -0.5 * sq;
    }
    total += log_sum_exp(score.data(), k);
  }
  return total;
}
// CHECK-LABEL: double mixture_grad(
// CHECK:         std::vector<double> diff(d);
// CHECK:         std::vector<double> d_diff(d);
// CHECK:         for (long i = 0; i < n; ++i) {
// CHECK:           diff[{{.*}}] = {{.*}};
// CHECK:           d_score[{{.*}}] += {{.*}};
// CHECK:           for (long {{c_[0-9]+}} = k - 1; {{c_[0-9]+}} >= 0; --{{c_[0-9]+}}) {
// CHECK:             d_mu[{{.*}}] -= {{.*}};
// CHECK:           }
// CHECK-NEXT:    }
// CHECK:         return
// ONELOOP-NOT: for (long {{[a-z_0-9]+}} = n - 1;
