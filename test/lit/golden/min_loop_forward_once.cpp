// A min over centroids inside a sum (the k-means cost): the point's
// distance loop runs once per point, and records the nearest centroid (a
// selection loop, lib/ad/rev/selection.cpp). The sweep over points is fused
// with the loop, and the sweep's copy of the inner loop, which records the
// winner, replaces the loop's own (loop-cse): one distance per centroid and
// point, no tape, then the adjoint of the nearest centroid only (the
// distance helper, called once, is inlined), with no backward loop over the
// centroids.
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
// CHECK-NOT:     tape_
// CHECK:         for (long i = 0; i < n; ++i) {
// CHECK:           closest_at[0] = -1;
// CHECK:           for (long [[J:j[_0-9]*]] = 0; [[J]] < k; ++[[J]]) {
// The distance, inlined (its helper has one caller): once per centroid.
// CHECK:             double [[D:s[_0-9]*]] = 0.0;
// CHECK-NEXT:        for (long [[M:m[_0-9]*]] = 0; [[M]] < d; ++[[M]]) {
// CHECK:             }
// CHECK-NEXT:        if ([[S:closest[_0-9]*]] > [[D]] || [[S]] != [[S]]) {
// CHECK-NEXT:          closest_at[0] = [[J]];
// CHECK-NEXT:        }
// CHECK-NEXT:        [[S]] = std::fmin([[S]], [[D]]);
// CHECK-NEXT:      }
// CHECK-NEXT:      cost_{{[0-9]+}} = cost_{{[0-9]+}} + [[S]];
// CHECK-NEXT:      const long [[W:closest_winner]] = closest_at[0];
// The nearest centroid's adjoint only: one loop over its coordinates.
// CHECK-NEXT:      if ([[W]] >= 0) {
// CHECK-NEXT:        for (long [[MB:m[_0-9]*]] = 0; [[MB]] < d; ++[[MB]]) {
// CHECK-NOT:           for (
// CHECK:               d_centroids[
// CHECK:             }
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    return cost_{{[0-9]+}};
