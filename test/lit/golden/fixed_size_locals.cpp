// Local arrays of a small constant size stay on the stack: the primal's
// `double h[4]`, its adjoint and the tapes of its overwritten elements are
// std::arrays, zero-filled where the code reads before writing, so no heap
// allocation happens inside a loop (the per-step `next` array is a stack
// array in the forward and in the backward loop). Only the tapes sized by
// the trip count are on the heap, allocated once before the loops. A local
// std::vector passed to a helper that takes `std::vector<double>&` stays a
// std::vector (a std::array would not bind to it) where the helper stays a
// call.
// RUN: %unfad %s -- -std=c++17 -I%unfad_include > %t.out
// RUN: grep -v '^// *[A-Z-]*:' %t.out | FileCheck %s
#include <unfad/unfad.h>

#include <cmath>
#include <vector>

UNFAD_GRADIENT double fixed_state(const double* W, const double* x, int T) {
  double h[4] = {};
  double loss = 0.0;
  for (int t = 0; t < T; ++t) {
    double next[4];
    for (int i = 0; i < 4; ++i) {
      double a = x[t];
      for (int j = 0; j < 4; ++j) a += W[i * 4 + j] * h[j];
      next[i] = std::tanh(a);
    }
    for (int i = 0; i < 4; ++i) h[i] = next[i];
    loss += h[0] * h[3];
  }
  return loss;
}
// CHECK-LABEL: double fixed_state_grad(
// CHECK-NOT:     std::vector
// CHECK:         std::array<double, 4> h{};
// CHECK-NEXT:    std::array<double, 4> d_h{};
// CHECK-NOT:     std::array<double, 4> saved_h{{.*}};
// CHECK:         for (long [[T:[a-z_0-9]+]] = 0; [[T]] < T; ++[[T]]) {
// CHECK-NOT:       new
// CHECK:           std::array<double, 4> next{};
// CHECK-NOT:       new
// CHECK:         for (long [[B:[a-z_0-9]+]] = T - 1; [[B]] >= 0; --[[B]]) {
// CHECK-NOT:       std::vector
// CHECK-NOT:       new
// CHECK:           std::array<double, 4> next_1{};
// CHECK-NOT:       std::vector
// CHECK-NOT:       new
// CHECK:           std::array<double, 4> d_next_1{};
// CHECK-NOT:       std::vector
// CHECK-NOT:       new
// CHECK:         return

static double scaled_sum(const std::vector<double>& v, double s) {
  double total = 0.0;
  for (double e : v) total += s * e * e;
  return total;
}

UNFAD_GRADIENT double through_vector(double x) {
  std::vector<double> v(3);
  for (int i = 0; i < 3; ++i) v[i] = x + i;
  return scaled_sum(v, x) + scaled_sum(v, 2.0); // (two calls: a helper called once is inlined)
}
// CHECK-LABEL: double through_vector_grad(
// CHECK:         std::vector<double> v(3);
// CHECK:         std::vector<double> d_v(3);
// CHECK:         scaled_sum_pullback(v,

// A buffer of a run-time size declared in a loop body (and its adjoint) is
// allocated once before the loops and zeroed where the body declared it.
UNFAD_GRADIENT double softmax_rows(const double* x, int n, int k) {
  double total = 0.0;
  for (int i = 0; i < n; ++i) {
    std::vector<double> e(k);
    double s = 0.0;
    for (int c = 0; c < k; ++c) {
      e[c] = std::exp(x[i * k + c]);
      s += e[c];
    }
    for (int c = 0; c < k; ++c) total += c * e[c] / s;
  }
  return total;
}
// CHECK-LABEL: double softmax_rows_grad(
// CHECK:         std::vector<double> e(k);
// CHECK:         std::vector<double> d_e(k);
// CHECK:         for (long [[I:[a-z_0-9]+]] = 0; [[I]] < n; ++[[I]]) {
// CHECK-NEXT:      for (long [[K:[a-z_0-9]+]] = 0; [[K]] < k; ++[[K]]) {
// CHECK-NEXT:        e[[[K]]] = 0.0;
// CHECK-NOT:       std::vector
// CHECK-NOT:       new
// CHECK:         return
