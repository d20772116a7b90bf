// dead-stores: once a point's adjoint runs in the same loop iteration as
// its forward work (loop fusion), the adjoint's refill of the scores beta
// (from the tape of the sums, for the log-sum-exp's pullback) stores into
// each beta[c] what the cluster loop stored there: the same expression,
// with the tape read as the sum it holds, and nothing between writing
// beta, the tape or what the expression reads. The refill goes; the tape
// is then write-only (dead-code's).
// RUN: %unfad --dump-after=loop-fusion --dump-format=json %s -- -std=c++17 -I%unfad_include > %t.json
// RUN: %unfad-opt --passes=partial-eval,split-struct-adds,constant-tapes,duplicate-tapes,dead-stores,dead-arrays,dead-code,loop-fusion,partial-eval,split-struct-adds,constant-tapes,duplicate-tapes --format=json %t.json > %t.in.json
// RUN: %unfad-opt --passes=lower-parallel %t.in.json | FileCheck %s --check-prefix=IN
// RUN: %unfad-opt --pass=dead-stores %t.in.json | FileCheck %s
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

UNFAD_GRADIENT double mixture(int d, int k, int n, const double *alpha, const double *mu, const double *q,
                              const double *x) {
  std::vector<double> qdiag(k * d), sumq(k), qdiff(d), beta(k);
  for (int c = 0; c < k; ++c) {
    sumq[c] = 0.0;
    for (int j = 0; j < d; ++j) {
      sumq[c] += q[c * d + j];
      qdiag[c * d + j] = std::exp(q[c * d + j]);
    }
  }
  double total = 0.0;
  for (int i = 0; i < n; ++i) {
    for (int c = 0; c < k; ++c) {
      for (int j = 0; j < d; ++j) qdiff[j] = qdiag[c * d + j] * (x[i * d + j] - mu[c * d + j]);
      double sq = 0.0;
      for (int j = 0; j < d; ++j) sq += qdiff[j] * qdiff[j];
      beta[c] = alpha[c] + sumq[c] - 0.5 * sq;
    }
    total += lse(beta.data(), k);
  }
  return total;
}
// IN-LABEL: def mixture$grad(
// IN:         fold [[C:c_[0-9_]+]] in [0, k)
// IN:           store beta[[[C]]] = [[V:t_[0-9]+]] in
// IN-NEXT:      store tape_sq[[[C]]] = [[SQ:sq_[0-9_]+]] in
// IN:         fold [[R:c_[0-9_]+]] in [0, k)
// IN-NEXT:      let [[T:sq_[0-9_]+]]: f64 = tape_sq[[[R]]] in
// IN:           store beta[[[R]]] =

// CHECK-LABEL: def mixture$grad(
// CHECK:         fold [[C:c_[0-9_]+]] in [0, k)
// CHECK:           store beta[[[C]]] = {{t_[0-9]+}} in
// CHECK-NEXT:      store tape_sq[[[C]]] = {{sq_[0-9_]+}} in
// CHECK-NOT:       store beta[
// CHECK:           fold {{c_[0-9_]+}} in reversed [0, k)
