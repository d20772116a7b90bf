// Parallel shapes (UNF paper App. A, Knossos §1.2/§4). A loop filling a
// fresh array elementwise is a build (map/map2), a loop adding to a zero
// accumulator a sum (reduce +). Map fusion inlines a build read once by a
// sum over the same index, so the map2-then-reduce dot product becomes one
// sum; its gradient is the other vector, in one fused pass with no tape and
// no temporary array. A build read twice stays a build, and its J^T
// accumulates from the array's cotangent buffer. A one-hot sum is one
// element.
// RUN: %unfad %s --dump=ir -- -std=c++17 -I%unfad_include | FileCheck %s --check-prefix=IR
// RUN: %unfad %s --dump=reverse -- -std=c++17 -I%unfad_include | FileCheck %s --check-prefix=REV
// RUN: %unfad %s --dump=ir --dump-format=json -- -std=c++17 -I%unfad_include | FileCheck %s --check-prefix=JSON
// RUN: %unfad %s -- -std=c++17 -I%unfad_include > %t.out
// RUN: grep -v '^// *[A-Z-]*:' %t.out | FileCheck %s
#include <unfad/unfad.h>

#include <cmath>
#include <vector>

UNFAD_GRADIENT double dot(const double* a, const double* b, int n) {
  std::vector<double> prod(n);
  for (int i = 0; i < n; ++i) prod[i] = a[i] * b[i];
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += prod[i];
  return s;
}
// IR-LABEL: def dot(
// IR-NOT:     build
// IR-NOT:     new
// IR:         sum [[I:[a-z_0-9]+]] in [0, n) ->
// IR-NEXT:      mul(a[[[I]]], b[[[I]]])
// JSON:       "kind": "sum"
// JSON:       "kind": "build"
// CHECK-LABEL: double dot_grad(const double* a, const double* b, int n, double* d_a, double* d_b) {
// CHECK-NOT:     std::vector
// CHECK:         for (long [[J:[a-z_0-9]+]] = 0; [[J]] < n; ++[[J]]) {
// CHECK-NEXT:      const double [[AJ:[a-z_0-9]+]] = a[[[J]]];
// CHECK-NEXT:      const double [[BJ:[a-z_0-9]+]] = b[[[J]]];
// CHECK-NEXT:      [[S:[a-z_0-9]+]] = [[S]] + [[AJ]] * [[BJ]];
// CHECK-DAG:       d_b[[[J]]] += [[AJ]];
// CHECK-DAG:       d_a[[[J]]] += [[BJ]];
// CHECK:         }
// CHECK-NEXT:    return [[S]];
// CHECK-NEXT:  }

UNFAD_GRADIENT double softmax_mean(const double* a, int n) {
  std::vector<double> e(n);
  for (int i = 0; i < n; ++i) e[i] = std::exp(a[i]);
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += e[i];
  double q = 0.0;
  for (int i = 0; i < n; ++i) q += e[i] * a[i];
  return q / s;
}
// IR-LABEL: def softmax_mean(
// IR:         let e: [f64] =
// IR-NEXT:      build [[I:[a-z_0-9]+]] < n ->
// IR-NEXT:        exp(a[[[I]]])
// IR:         sum [[J:[a-z_0-9]+]] in [0, n) ->
// IR-NEXT:      e[[[J]]]
// IR:         sum [[K:[a-z_0-9]+]] in [0, n) ->
// IR-NEXT:      mul(e[[[K]]], a[[[K]]])
// The UNF of the build and the sum; reverse mode turns each into F(P, J^T P)
// with no tape: the J^T loops carry only cotangents.
// REV-LABEL: def softmax_mean$grad(
// REV-NOT:     tape_
// REV:         build
// REV:         sum
// REV-NOT:     tape_
// REV:       def
// CHECK-LABEL: double softmax_mean_grad(const double* a, int n, double* d_a) {
// CHECK:         std::vector<double> e(n);
// CHECK:         std::vector<double> d_e(n);
// CHECK-NOT:     tape
// CHECK:         const double [[AK:t_[0-9]+]] = a[[[K:[a-z_0-9]+]]];
// CHECK:         d_e[[[K]]] = [[AK]] * d_q;
// CHECK:         d_a[[[L:[a-z_0-9]+]]] += std::exp(a[[[L]]]) * d_e[[[L]]];
// CHECK:         return result;

UNFAD_GRADIENT double one_hot(const double* a, int n, int k) {
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += (i == k ? a[i] * a[i] : 0.0);
  return s;
}
// IR-LABEL: def one_hot(
// IR-NOT:     sum
// IR:         if and(le(0, k), lt(k, n)) then
// IR-NEXT:      mul(a[k], a[k])
// IR-NEXT:    else
// IR-NEXT:      0.0
// CHECK-LABEL: double one_hot_grad(
// CHECK-NOT:     for
// CHECK:         d_a[k] += 2.0 *
