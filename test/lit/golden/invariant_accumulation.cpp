// Accumulations into an adjoint at an index the inner loop does not change
// (d_p[3 * i + k] for the outer i) are carried in registers through the inner
// loop and added to the buffer once after it: a pair costs three
// read-modify-writes of d_p instead of six. The other buffer updates stay
// in place, and an inner loop that runs zero times adds nothing.
// RUN: %unfad %s --dump=optimized -- -std=c++17 -I%unfad_include | FileCheck %s --check-prefix=OPT
// RUN: %unfad %s -- -std=c++17 -I%unfad_include > %t.out
// RUN: grep -v '^// *[A-Z-]*:' %t.out | FileCheck %s
#include <unfad/unfad.h>

UNFAD_GRADIENT double pairwise_energy(const double* p, int n) {
  double e = 0.0;
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < n; ++j) {
      const double dx = p[3 * i] - p[3 * j];
      const double dy = p[3 * i + 1] - p[3 * j + 1];
      const double dz = p[3 * i + 2] - p[3 * j + 2];
      e += 1.0 / (dx * dx + dy * dy + dz * dz + 1.0);
    }
  }
  return e;
}
// OPT-LABEL: def pairwise_energy$grad(
// OPT:         fold j{{(_[0-9]+)?}} in [t, n) from {{[a-z_0-9]+}} = (state, 0.0, 0.0, 0.0) ->
// OPT:         if lt(t, n) then
// CHECK-LABEL: double pairwise_energy_grad(const double* p, int n, double* d_p) {
// CHECK:         double [[AZ:d_p_acc(_[0-9]+)?]] = 0.0;
// CHECK:         double [[AY:d_p_acc(_[0-9]+)?]] = 0.0;
// CHECK:         double [[AX:d_p_acc(_[0-9]+)?]] = 0.0;
// CHECK:         for (long [[J:j(_[0-9]+)?]] = t; [[J]] < n; ++[[J]]) {
// CHECK-COUNT-3:   d_p[{{[a-z_0-9]+}}] -= {{[a-z_0-9]+}};
// CHECK-NOT:       d_p[
// CHECK:           [[AZ]] = [[AZ]] + {{[a-z_0-9]+}};
// CHECK-NEXT:      [[AY]] = [[AY]] + {{[a-z_0-9]+}};
// CHECK-NEXT:      [[AX]] = [[AX]] + {{[a-z_0-9]+}};
// CHECK-NEXT:    }
// CHECK-NEXT:    if (t < n) {
// CHECK-NEXT:      d_p[3 * i + 2] += [[AZ]];
// CHECK-NEXT:      d_p[3 * i + 1] += [[AY]];
// CHECK-NEXT:      d_p[3 * i] += [[AX]];
// CHECK-NEXT:    }
