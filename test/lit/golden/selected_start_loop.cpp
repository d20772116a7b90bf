// An inner loop whose start value is selected by a condition (`r = t > 0 ?
// 1 : -1`, llsq's sign) runs once per outer iteration: the sweep's copy of
// the loop, which tapes `power`, replaces the forward's (loop-cse; the two
// selections of r are one, so the loops are recognised as twins).
// RUN: %unfad %s -- -std=c++17 -I%unfad_include > %t.out
// RUN: grep -v '^// *[A-Z-]*:' %t.out | FileCheck %s
#include <unfad/unfad.h>
UNFAD_GRADIENT double fit(const double* c, int m, int n) {
  double sum = 0.0;
  for (int i = 0; i < n; ++i) {
    const double t = -1.0 + i * 2.0 / (n - 1);
    double r = t > 0 ? 1.0 : -1.0;
    double power = 1.0;
    for (int j = 0; j < m; ++j) {
      r -= c[j] * power;
      power *= t;
    }
    sum += r * r;
  }
  return sum;
}
// CHECK-LABEL: double fit_grad(const double* c, int m, int n, double* d_c) {
// CHECK:         unfad::tape_buffer<double> tape_state(
// CHECK:         for (long i = 0; i < n; ++i) {
// CHECK:           if (
// CHECK-NOT:       if (
// CHECK:           for (long [[J:j_[0-9]+]] = 0; [[J]] < m; ++[[J]]) {
// CHECK-NEXT:        tape_state[[[J]]] =
// CHECK-NOT:       for (long {{.*}} = 0; {{.*}} < m;
// CHECK:           sum = sum +
// CHECK:           for (long [[K:j_[0-9]+]] = {{0|m - 1}};
// CHECK:             d_c[[[K]]] +=
// CHECK:         return sum;
