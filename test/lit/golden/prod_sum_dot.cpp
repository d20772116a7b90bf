// The UNF paper's Example 5.5 in C++: the gradient of sum is a constant,
// of dot the other vector, and of prod the O(n), division-free scan (a
// tape of prefix products, suffix products carried by the backward loop).
// Loops stay loops; adjoints are updated in place.
// RUN: %unfad %s -- -std=c++17 -I%unfad_include > %t.out
// RUN: grep -v '^// *[A-Z-]*:' %t.out | FileCheck %s
#include <unfad/unfad.h>

UNFAD_GRADIENT double sum(const double* a, int n) {
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += a[i];
  return s;
}
// The loop is a sum (a reduction: no tape) and its sweep is fused with it:
// d_a[i] += 1 in the same pass.
// CHECK-LABEL: double sum_grad(const double* a, int n, double* d_a) {
// CHECK:         for (long [[I:[a-z_0-9]+]] = 0; [[I]] < n; ++[[I]]) {
// CHECK-NEXT:      [[S:[a-z_0-9]+]] = [[S]] + a[[[I]]];
// CHECK-NEXT:      d_a[[[I]]] += 1.0;
// CHECK-NEXT:    }
// CHECK-NEXT:    return [[S]];

UNFAD_GRADIENT double dot(const double* a, const double* b, int n) {
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += a[i] * b[i];
  return s;
}
// d_a gets b, d_b gets a: one fused pass, no tape.
// CHECK-LABEL: double dot_grad(const double* a, const double* b, int n, double* d_a, double* d_b) {
// CHECK-NOT:     std::vector
// CHECK:         for (long
// CHECK-DAG:       d_a[[[J:[a-z_0-9]+]]] += [[BJ:[a-z_0-9]+]];
// CHECK-DAG:       d_b[[[J]]] += [[AJ:[a-z_0-9]+]];
// CHECK:         return s;

UNFAD_GRADIENT double prod(const double* a, int n) {
  double p = 1.0;
  for (int i = 0; i < n; ++i) p *= a[i];
  return p;
}
// Forward: the tape of prefix products; backward: reversed loop carrying the
// suffix product; no division anywhere.
// CHECK-LABEL: double prod_grad(const double* a, int n, double* d_a) {
// CHECK-NOT:     /
// CHECK:         unfad::tape_buffer<double> [[TAPE:tape_[a-z_0-9]+]](
// CHECK:         for (long [[I:[a-z_0-9]+]] = 0; [[I]] < n; ++[[I]]) {
// CHECK-NEXT:      [[TAPE]][[[I]]] = state;
// CHECK:         for (long [[K:[a-z_0-9]+]] = n - 1; [[K]] >= 0; --[[K]]) {
// CHECK:           d_a[[[K]]] +=
// CHECK-NOT:     /
// CHECK:         return state;
