// A min over centroids inside a sum (the k-means cost): the point's
// distance loop runs once per point. The sweep over points is fused with
// the loop, and the sweep's copy of the inner loop, which also tapes each
// step's state and distance, replaces the loop's own (loop-cse): one
// distance per centroid and point, then the pullback of the nearest one
// only (the others' cotangents are zero, and skipped).
// RUN: %unfad %s -- -std=c++17 -I%unfad_include > %t.out
// RUN: grep -v '^// *[A-Z-]*:' %t.out | FileCheck %s
#include <unfad/unfad.h>

#include <cmath>

static double squared_distance(const double* a, const double* b, int d) {
  double s = 0.0;
  for (int m = 0; m < d; ++m) s += (a[m] - b[m]) * (a[m] - b[m]);
  return s;
}

UNFAD_GRADIENT double kmeans(const double* points, const double* centroids, int n, int k, int d) {
  double cost = 0.0;
  for (int i = 0; i < n; ++i) {
    const double* p = &points[i * d];
    double closest = INFINITY;
    for (int j = 0; j < k; ++j) closest = std::fmin(closest, squared_distance(p, centroids + j * d, d));
    cost += closest;
  }
  return cost;
}
// CHECK-LABEL: double kmeans_grad(
// CHECK:         for (long i = 0; i < n; ++i) {
// CHECK:           for (long [[J:j[_0-9]*]] = 0; [[J]] < k; ++[[J]]) {
// CHECK-NEXT:        tape_state[[[J]]] =
// CHECK:             const double [[T:t[_0-9]*]] = ::squared_distance(points + p_offset, centroids + {{.*}}, d);
// CHECK:             tape_t[[[J]]] = [[T]];
// CHECK-NEXT:      }
// CHECK-NEXT:      cost_{{[0-9]+}} = cost_{{[0-9]+}} + state_{{.*}};
// CHECK-NOT:       ::squared_distance(
// CHECK:           for (long {{.*}} = k - 1; {{.*}} >= 0; --{{.*}}) {
// CHECK:             if (d_t{{.*}} != 0.0) {
// CHECK-NEXT:          squared_distance_pullback(
// CHECK-NEXT:        }
// CHECK:         return cost_{{[0-9]+}};
