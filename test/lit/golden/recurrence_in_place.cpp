// A recurrence in place: the loop rewrites a[i] from a[i-1]. The forward
// loop tapes the element each store overwrites (one per iteration, not a
// copy of the array; a store at the loop's own index needs no index tape:
// the backward iteration knows it); each backward iteration first undoes
// its stores, so it recomputes from the memory the forward one saw.
// RUN: %unfad %s -- -std=c++17 -I%unfad_include > %t.out
// RUN: grep -v '^// *[A-Z-]*:' %t.out | FileCheck %s
#include <unfad/unfad.h>

#include <vector>

UNFAD_GRADIENT double prefix_recurrence(const double* x, int n, double c) {
  std::vector<double> a(n);
  a[0] = x[0];
  for (int i = 1; i < n; ++i) a[i] = a[i - 1] * c + x[i];
  double s = 0;
  for (int i = 0; i < n; ++i) s += a[i] * a[i];
  return s;
}
// CHECK-LABEL: double prefix_recurrence_grad(
// CHECK-NOT:     * n]
// CHECK-NOT:     _index
// CHECK:         unfad::tape_buffer<double> [[OLD:tape_a_old]]([[N:n_[0-9]+]]);
// CHECK:         for (long [[I:[a-z_0-9]+]] = 1; [[I]] < n; ++[[I]]) {
// CHECK:           const double [[O:old_a[_0-9]*]] = a[[[I]]];
// CHECK-NEXT:      [[OLD]][{{.*}}] = [[O]];
// CHECK-NEXT:      a[[[I]]] =
// CHECK:         for (long [[J:[a-z_0-9]+]] = n - 1; [[J]] >= 1; --[[J]]) {
// CHECK-NEXT:      a[[[J]]] = [[OLD]][[[J]] - 1];
// CHECK-NOT:     * n]
// CHECK-NOT:     _index
// CHECK:         return s;

// Stores in branches: the index tape says -1 for a store the iteration did
// not make, and the undo skips it; still no copy of the array per iteration.
UNFAD_GRADIENT double store_in_branch(const double* x, int n) {
  std::vector<double> a(n, 0.5);
  for (int i = 1; i < n; ++i) {
    if (x[i] > 0) a[i] = a[i - 1] * x[i];
    else a[i - 1] += x[i];
  }
  return a[n - 1] + a[0];
}
// CHECK-LABEL: double store_in_branch_grad(
// CHECK-NOT:     * n]
// CHECK:         for (long [[I:[a-z_0-9]+]] = 1; [[I]] < n; ++[[I]]) {
// CHECK-NEXT:      [[IDX1:tape_a_index]][{{.*}}] = -1;
// CHECK-NEXT:      [[IDX2:tape_a_index_1]][{{.*}}] = -1;
// CHECK:         for (long [[J:[a-z_0-9]+]] = n - 1; [[J]] >= 1; --[[J]]) {
// CHECK-NEXT:      const long [[K:k[_0-9]*]] = [[IDX2]][[[J]] - 1];
// CHECK-NEXT:      if ([[K]] >= 0) {
// CHECK-NOT:     * n]
// CHECK:         return result;
