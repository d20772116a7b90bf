// A k-means cost: for every point the squared distance to its nearest
// centroid (a min over centroids inside a sum). Only the nearest centroid's
// distance has a nonzero cotangent; the adjoint loops of the others are
// skipped (golden/skip_zero_adjoints.cpp pins the guard).
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
      nearest = std::fmin(nearest, dist);
    }
    cost += nearest;
  }
  return cost;
}

// The same with a branch instead of fmin, and a weight per point.
UNFAD_GRADIENT double kmeans_weighted(const double* points, const double* centroids, const double* w, int n, int k,
                                      int d) {
  double cost = 0.0;
  for (int i = 0; i < n; ++i) {
    double nearest = 1e300;
    for (int c = 0; c < k; ++c) {
      double dist = 0.0;
      for (int j = 0; j < d; ++j) dist += (points[i * d + j] - centroids[c * d + j]) * (points[i * d + j] - centroids[c * d + j]);
      if (dist < nearest) nearest = dist;
    }
    cost += w[i] * nearest;
  }
  return cost;
}

/* e2e
[{"function": "kmeans_cost",
  "points": [[[0.5, -1.25, 2.0, 0.75, -0.3, 1.1], [0.1, 0.2, 1.5, -0.4, -1.0, 1.2], 3, 3, 2],
             [[0.9, 0.2], [0.3, 0.4, -0.6, 0.8], 1, 2, 2]]},
 {"function": "kmeans_weighted",
  "points": [[[0.5, -1.25, 2.0, 0.75, -0.3, 1.1], [0.1, 0.2, 1.5, -0.4, -1.0, 1.2], [1.0, 0.5, 2.0], 3, 3, 2]]}]
*/
