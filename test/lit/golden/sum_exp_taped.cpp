// A sum of a transcendental (log-sum-exp's exp(x[i] - m)): the forward sum
// tapes each exp (one allocation, before the loop) and the backward loop
// reads it back: one exp per element in all, as a hand-written adjoint
// (exp costs tens of cycles, its tape a store and a load). A sum of sqrt
// (one instruction) is not taped: its sweep needs no total, and runs fused
// with the sum, sharing the sqrt.
// RUN: %unfad %s -- -std=c++17 -I%unfad_include > %t.out
// RUN: grep -v '^// *[A-Z-]*:' %t.out | FileCheck %s
#include <unfad/unfad.h>

#include <cmath>

UNFAD_GRADIENT double lse(const double* x, int n) {
  double m = x[0];
  for (int i = 1; i < n; ++i) m = std::fmax(m, x[i]);
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += std::exp(x[i] - m);
  return m + std::log(s);
}

UNFAD_GRADIENT double root_sum(const double* x, int n) {
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += std::sqrt(x[i] * x[i] + 1.0);
  return s;
}
// CHECK-LABEL: double lse_grad(
// CHECK:         std::unique_ptr<double[]> [[TAPE:tape_t[_0-9]*]](new double[
// CHECK-NEXT:    double [[S:s[_0-9]*]] = 0.0;
// CHECK-NEXT:    for (long [[I:i[_0-9]*]] = 0; [[I]] < n; ++[[I]]) {
// CHECK-NEXT:      const double [[E:t[_0-9]*]] = std::exp(x[[[I]]] - [[M:m[_0-9]*]]);
// CHECK-NEXT:      [[TAPE]][[[I]]] = [[E]];
// CHECK-NEXT:      [[S]] = [[S]] + [[E]];
// CHECK-NEXT:    }
// CHECK-NOT:     std::exp
// CHECK:         for (long [[J:i[_0-9]*]] = 0; [[J]] < n; ++[[J]]) {
// CHECK-NEXT:      const double [[D:d_t[_0-9]*]] = [[TAPE]][[[J]]] *
// CHECK-NEXT:      d_x[[[J]]] += [[D]];
// CHECK-NOT:     std::exp
// CHECK:       // unfad:end lse_grad
// CHECK-LABEL: double root_sum_grad(
// CHECK-NOT:     tape_
// CHECK:         std::sqrt(
// CHECK-NOT:     std::sqrt(
// CHECK:       // unfad:end root_sum_grad
