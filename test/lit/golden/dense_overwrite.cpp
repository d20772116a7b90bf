// A time-stepping loop whose state `y` (an in/out pointer) is advanced in
// place by a loop over a fixed range, and whose stage buffer `k` is filled
// whole by a helper loop carrying a running sum. Each step overwrites the
// dense segment [0, n) of y: the forward loop keeps its old values as one
// row per step of a slab sized once before the loop (no index array, no
// log top), and the backward step puts the row back with a plain loop. `k`
// is filled before it is read in every step: nothing of it is kept per step.
// The J^T of the update loop puts back y[i] at its own index (no index tape).
// RUN: %unfad %s --tape-nested-loops=false -- -std=c++17 -I%unfad_include > %t.out
// RUN: grep -v '^// *[A-Z-]*:' %t.out | FileCheck %s
#include <unfad/unfad.h>

#include <vector>

static void rates(const double* r, const double* y, double* dy, int n) {
  dy[0] = r[0];
  double sum = 0.0;
  for (int i = 1; i < n; ++i) {
    sum += r[i];
    dy[i] = sum * y[i - 1];
  }
}

UNFAD_GRADIENT_WRT(r, y) void midpoint(const double* r, int n, int steps, double* y) {
  std::vector<double> k(n), mid(n);
  const double h = 1.0 / steps;
  for (int s = 0; s < steps; ++s) {
    rates(r, y, k.data(), n);
    for (int i = 0; i < n; ++i) mid[i] = y[i] + 0.5 * h * k[i];
    rates(r, mid.data(), k.data(), n);
    for (int i = 0; i < n; ++i) y[i] += h * k[i];
  }
}
// CHECK-LABEL: void midpoint_grad(
// CHECK-NOT:     log_
// CHECK:         long [[LEN:sweep_y_length]];
// CHECK:         unfad::tape_buffer<double> [[SLAB:tape_y_old]]([[N:n_[0-9]+]] * [[LEN]]);
// CHECK-NOT:     _index
// CHECK:         for (long [[S:s]] = 0; [[S]] < steps; ++[[S]]) {
// CHECK-NOT:       new
// CHECK-NOT:       _index
// CHECK-NOT:       old_k
// CHECK:           for (long [[I:i_[0-9]+]] = 0; [[I]] < n; ++[[I]]) {
// CHECK-NEXT:        const double [[O:old_y]] = y[[[I]]];
// CHECK-NEXT:        [[SLAB]][[[S]] * [[LEN]] + [[I]]] = [[O]];
// CHECK-NEXT:        y[[[I]]] += h * k[[[I]]];
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NOT:     _index
// CHECK:         for (long [[B:s_[0-9]+]] = steps - 1; [[B]] >= 0; --[[B]]) {
// CHECK-NEXT:      for (long [[Q:k_[0-9]+]] = 0; [[Q]] < [[LEN]]; ++[[Q]]) {
// CHECK-NEXT:        y[[[Q]]] = [[SLAB]][[[B]] * [[LEN]] + [[Q]]];
// CHECK-NEXT:      }
// CHECK-NOT:       _index
// CHECK:           for (long [[J:i_[0-9_]+]] = n - 1; [[J]] >= 0; --[[J]]) {
// CHECK-NEXT:        y[[[J]]] = tape_y_old_1[[[J]]];
// CHECK-NOT:     _index
// CHECK:       // unfad:end midpoint_grad
