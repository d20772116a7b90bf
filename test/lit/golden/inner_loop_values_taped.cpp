// A Gaussian mixture's log-likelihood as people write it: per point, a loop
// over the clusters fills beta[c] from a sum over the dimensions, and a
// log-sum-exp helper reads beta. The point loop's backward sweep needs beta
// again for the helper's pullback; without taping it recomputed the whole
// cluster loop, the inner loops included (O(k d) per point, O(k d^2) with a
// triangular factor: GradBench's gmm). The forward sweep tapes each
// cluster's sum per (point, cluster) in one tape of n x k allocated before
// the loop, and the backward sweep refills beta from it with no inner loop
// (lib/ad/rev/inner_values.cpp); diff is filled only by the cluster loop's
// own transpose. (The helper has one caller: it is inlined.) The backward
// sweep of a point runs right after its forward work, in the same loop
// (loop fusion with scratch buffers); there the refill of beta from the
// tape stores what beta holds already (dead-stores drops it), and the tape
// of the sums goes with it: beta is read as the forward work left it.
// RUN: %unfad %s -- -std=c++17 -I%unfad_include > %t.out
// RUN: grep -v '^// *[A-Z-]*:' %t.out | FileCheck %s
#include <unfad/unfad.h>

#include <cmath>
#include <vector>

static double lse(const double *x, int n) {
  double a = x[0];
  for (int i = 1; i < n; ++i)
    if (x[i] > a) a = x[i];
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += std::exp(x[i] - a);
  return a + std::log(s);
}

UNFAD_GRADIENT_WRT(alpha, mu, q)
double mix(int d, int k, int n, const double *alpha, const double *mu, const double *q, const double *x) {
  std::vector<double> diff(d), beta(k);
  double total = 0.0;
  for (int i = 0; i < n; ++i) {
    for (int c = 0; c < k; ++c) {
      for (int j = 0; j < d; ++j) diff[j] = std::exp(q[c * d + j]) * (x[i * d + j] - mu[c * d + j]);
      double sq = 0.0;
      for (int j = 0; j < d; ++j) sq += diff[j] * diff[j];
      beta[c] = alpha[c] - 0.5 * sq;
    }
    total += lse(beta.data(), k);
  }
  return total;
}
// CHECK-LABEL: double mix_grad(
// CHECK-NOT:     tape_sq
// The point loop: the cluster loop fills beta from the sums.
// CHECK:         for (long [[I:[a-z_0-9]+]] = 0; [[I]] < n; ++[[I]]) {
// CHECK-NEXT:      for (long [[C:[a-z_0-9]+]] = 0; [[C]] < k; ++[[C]]) {
// CHECK:             double [[S:[a-z_0-9]+]] = 0.0;
// CHECK:             beta[[[C]]] = alpha[[[C]]] - 0.5 * [[S]];
// CHECK-NEXT:      }
// The log-sum-exp, inlined (its helper has one caller): beta read, not refilled.
// CHECK-NEXT:      const double {{.*}} = beta[0];
// The point's adjoint, in the same loop, with beta as the cluster loop left it.
// CHECK-NOT:       {{[^_]}}beta[{{.*}}] =
// CHECK-NOT:       for (long {{.*}} < d;
// CHECK:           d_beta[0] +=
// The cluster loop's transpose refills diff itself.
// CHECK-NEXT:      for (long [[CT:[a-z_0-9]+]] = k - 1; [[CT]] >= 0; --[[CT]]) {
// CHECK-NOT:     tape_sq
// CHECK:         // unfad:end mix_grad
