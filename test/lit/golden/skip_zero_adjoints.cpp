// A running min over centroids inside a sum, the running value discounted
// each step (so not a plain selection, which min_loop_forward_once.cpp pins): the
// cotangent of each centroid's distance is zero except where the min took
// it, so its adjoint loop (every += scaled by that cotangent) runs only
// when the cotangent is nonzero.
// RUN: %unfad %s -- -std=c++17 -I%unfad_include > %t.out
// RUN: grep -v '^// *[A-Z-]*:' %t.out | FileCheck %s
#include <unfad/unfad.h>

#include <cmath>

UNFAD_GRADIENT double kmeans_cost(const double* points, const double* centroids, int n, int k, int d) {
  double cost = 0.0;
  for (int i = 0; i < n; ++i) {
    double nearest = INFINITY;
    for (int c = 0; c < k; ++c) {
      double dist = 0.0;
      for (int j = 0; j < d; ++j) {
        const double diff = points[i * d + j] - centroids[c * d + j];
        dist += diff * diff;
      }
      nearest = std::fmin(1.01 * nearest, dist);
    }
    cost += nearest;
  }
  return cost;
}
// CHECK-LABEL: double kmeans_cost_grad(
// CHECK:         for (long [[C:c_[0-9]+]] = k - 1; [[C]] >= 0; --[[C]]) {
// CHECK:           const double [[D:d_dist[_0-9]*]] = static_cast<double>(
// CHECK-NEXT:      if ([[D]] != 0.0) {
// CHECK-NEXT:        for (long [[J:j_[0-9]+]] = 0; [[J]] < d; ++[[J]]) {
// CHECK:               d_centroids[{{.*}}] -=
// CHECK:               d_points[{{.*}}] +=
// CHECK:         return
