// A loop body that fills its row of a local table with an inner loop, then
// reads the row before it. The backward sweep recomputes the body, and the
// fill loop puts back what it overwrote from two 3-element tapes (the row),
// where a copy of the whole table before it and its restore after made
// every backward iteration cost O(n): the gradient was O(n^2).
// RUN: %unfad %s -- -std=c++17 -I%unfad_include > %t.out
// RUN: grep -v '^// *[A-Z-]*:' %t.out | FileCheck %s
#include <unfad/unfad.h>

#include <cmath>
#include <vector>

UNFAD_GRADIENT double trajectory_rows(const double* x, int n) {
  std::vector<std::vector<double>> pos(n, std::vector<double>(3));
  for (int t = 0; t < n; ++t) {
    for (int i = 0; i < 3; ++i) pos[t][i] = x[3 * t + i];
    if (t > 0)
      for (int i = 0; i < 3; ++i) pos[t][i] += 0.5 * std::sin(pos[t - 1][i]);
  }
  double s = 0;
  for (int t = 0; t < n; ++t)
    for (int i = 0; i < 3; ++i) s += pos[t][i] * pos[t][i];
  return s;
}
// CHECK-LABEL: double trajectory_rows_grad(
// CHECK-NOT:     saved_
// CHECK:         std::array<long, 3> [[INDEX:tape_pos_index[_0-9]*]]{};
// CHECK-NEXT:    std::array<double, 3> [[OLD:tape_pos_old[_0-9]*]]{};
// CHECK:         for (long [[T:[a-z_0-9]+]] = n - 1; [[T]] >= 0; --[[T]]) {
// The fill loop, recomputed: what it overwrites is taped, one row.
// CHECK:           for (long [[I:[a-z_0-9]+]] = 0; [[I]] < 3; ++[[I]]) {
// CHECK:             [[OLD]][[[I]]] = {{.*}};
// CHECK-NEXT:        pos[{{.*}}] = x[3 * [[T]] + [[I]]];
// Its J^T puts the row back.
// CHECK:             pos[{{[a-z_0-9]+}}] = [[OLD]][[[J:[a-z_0-9]+]]];
// CHECK:             d_x[3 * [[T]] + [[J]]] +=
// No loop over the whole table (its size is `t`) in the backward sweep.
// CHECK-NOT:       < t;
// CHECK:         return
