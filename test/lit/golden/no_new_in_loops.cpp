// No heap allocation inside a loop. (1) The backward sweep of a triangular
// update (`for row in [col + 1, d)` inside `for col in [0, d)`, gmm's
// Cholesky-factor product) tapes d - col - 1 values per column: the tapes
// are allocated once before the point loop at the largest size, d - 1
// (hoist-invariants with loop_bounds.cpp), and reused by every column. (The
// packed index li++ is computed from the row, not taped: induction.cpp.)
// (2) A helper's log-sum-exp per row (gmm's per-point one), inlined since
// it has one caller, allocates nothing in the row loop: its max loop records
// the winner's index in a one-element stack cell (allocated before the
// loop) instead of taping the running maximum.
// RUN: %unfad %s -- -std=c++17 -I%unfad_include > %t.out
// RUN: grep -v '^// *[A-Z-]*:' %t.out | FileCheck %s
#include <unfad/unfad.h>
#include <cmath>
#include <vector>
UNFAD_GRADIENT double tri(const double* l, const double* x, int n, int d) {
  std::vector<double> q(d);
  double total = 0.0;
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < d; ++j) q[j] = x[i * d + j];
    int li = 0;
    for (int col = 0; col < d; ++col)
      for (int row = col + 1; row < d; ++row) q[row] += l[li++] * q[col];
    for (int j = 0; j < d; ++j) total += q[j] * q[j];
  }
  return total;
}
// CHECK-LABEL: double tri_grad(
// CHECK:         const long [[B:tmp[_0-9]*]] = d - 1;
// CHECK-NEXT:    long [[N:n_[_0-9]+]];
// CHECK-NEXT:    if (0 < [[B]]) {
// CHECK-NEXT:      [[N]] = [[B]];
// CHECK-NOT:     tape_buffer<long> tape_state_{{[0-9]+}}([[N]]);
// CHECK:         unfad::tape_buffer<double> tape_q_old([[N]]);
// CHECK:         for (long i = 0; i < n; ++i) {
// CHECK-NOT:       new
// CHECK:         return

static double row_lse(const double* v, int n) {
  double top = v[0];
  for (int i = 1; i < n; ++i)
    if (v[i] > top) top = v[i];
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += std::exp(v[i] - top);
  return top + std::log(s);
}
UNFAD_GRADIENT double rows(const double* a, double w, int m, int k) {
  double total = 0.0;
  for (int r = 0; r < m; ++r) total += w * row_lse(a + r * k, k);
  return total;
}
// CHECK-LABEL: double rows_grad(
// CHECK:         for (long r = 0; r < m; ++r) {
// CHECK-NOT:       new
// CHECK:         std::array<long, 1> [[AT:top[_0-9]*_at]]{};
// CHECK-NOT:       new
// CHECK:         for (long [[R:r_[0-9]+]] = 0; [[R]] < m; ++[[R]]) {
// CHECK-NOT:       new
// CHECK:           [[AT]][0] = 0;
// CHECK-NOT:       new
// CHECK:           if ([[W:top[_0-9]*_winner]] >= 1) {
// CHECK-NEXT:        d_a[{{.*}} + [[W]]] += {{.*}};
// CHECK-NOT:       new
// CHECK:         return

// (3) A tape whose size is an array's length asked for inside the loop (a
// Horner evaluation per point over a coefficient vector, `c.size()` read in
// the point loop): the length is invariant, so the tape is allocated once,
// before the point loop (hoist-invariants).
UNFAD_GRADIENT double horner_fit(const std::vector<double>& c, const std::vector<double>& xs) {
  double loss = 0.0;
  for (size_t i = 0; i < xs.size(); ++i) {
    double r = 0.0;
    for (int j = int(c.size()) - 1; j >= 0; --j) r = r * xs[i] + c[j];
    loss += r * r;
  }
  return loss;
}
// CHECK-LABEL: double horner_fit_grad(
// CHECK-NOT:     for (
// CHECK:         unfad::tape_buffer<double> {{tape_[a-z_0-9]+}}(
// CHECK-NEXT:    double {{[a-z_0-9]+}} = 0.0;
// CHECK-NEXT:    for (long i = 0; i < {{.*}}; ++i) {
// CHECK-NOT:       tape_buffer
// CHECK-NOT:       new
// CHECK:         return
