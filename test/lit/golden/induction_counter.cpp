// A packed lower triangle walked with a running position (li++, gmm's
// Cholesky factor): the row loop's counter advances by one per row, so the
// backward sweep computes it from the row (li at the column's start + row -
// col - 1) instead of taping it (lib/ad/rev/induction.cpp). Before, each
// column of the backward sweep ran the row loop forward once more only to
// tape the counter row by row, then read the tape back. The column loop's
// own counter (advanced by d - col - 1 per column) is taped as before: d
// values per point.
// RUN: %unfad %s -- -std=c++17 -I%unfad_include > %t.out
// RUN: grep -v '^// *[A-Z-]*:' %t.out | FileCheck %s
#include <unfad/unfad.h>

#include <cmath>
#include <vector>

UNFAD_GRADIENT double packed(const double* l, const double* x, int n, int d) {
  std::vector<double> q(d), v(d);
  double total = 0.0;
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < d; ++j) {
      v[j] = x[i * d + j];
      q[j] = v[j];
    }
    int li = 0;
    for (int col = 0; col < d; ++col)
      for (int row = col + 1; row < d; ++row) q[row] += l[li++] * v[col];
    for (int j = 0; j < d; ++j) total += std::sin(q[j]) * q[j];
  }
  return total;
}
// CHECK-LABEL: double packed_grad(
// CHECK:         unfad::tape_buffer<long> [[COL:tape_state[_0-9]*]]([[D:n_[0-9]+]]);
// CHECK-NOT:     tape_buffer
// CHECK:         for (long i = 0; i < n; ++i) {
// The backward column loop: the column's counter from its tape, each row's
// from the row; no forward row loop before the transposed one.
// CHECK:           for (long [[C:col[_0-9]*]] = d - 1; [[C]] >= 0; --[[C]]) {
// CHECK-NEXT:        const long [[LI0:[a-z_0-9]+]] = [[COL]][[[C]]];
// CHECK-NEXT:        const long [[T:t_[0-9]+]] = [[C]] + 1;
// CHECK-NEXT:        double [[ACC:d_v_acc[_0-9]*]];
// CHECK-NEXT:        if ([[T]] < d) {
// CHECK-NEXT:          [[ACC]] = d_v[[[C]]];
// CHECK:             for (long [[R:[a-z_0-9]+]] = d - 1; [[R]] >= [[T]]; --[[R]]) {
// CHECK-NEXT:          const long [[LI:[a-z_0-9]+]] = [[LI0]] + ([[R]] - [[T]]);
// CHECK:               d_l[[[LI]]] += v[[[C]]] * {{.*}};
// CHECK:         // unfad:end packed_grad
