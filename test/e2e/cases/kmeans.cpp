// The k-means cost: for every point, the squared distance to its nearest
// centre (a min inside a sum), once with an if and once with std::fmin.
// Points are chosen away from ties between centres.
#include <unfad/unfad.h>

#include <cmath>

UNFAD_GRADIENT double kmeans_cost(const double* pts, const double* centres, int n, int k, int d) {
  double cost = 0.0;
  for (int i = 0; i < n; ++i) {
    double best = 1e300;
    for (int c = 0; c < k; ++c) {
      double dist = 0.0;
      for (int j = 0; j < d; ++j) {
        const double diff = pts[i * d + j] - centres[c * d + j];
        dist += diff * diff;
      }
      if (dist < best) best = dist;
    }
    cost += best;
  }
  return cost;
}

UNFAD_GRADIENT double kmeans_cost_fmin(const double* pts, const double* centres, int n, int k, int d) {
  double cost = 0.0;
  for (int i = 0; i < n; ++i) {
    double best = 1e300;
    for (int c = 0; c < k; ++c) {
      double dist = 0.0;
      for (int j = 0; j < d; ++j) {
        const double diff = pts[i * d + j] - centres[c * d + j];
        dist += diff * diff;
      }
      best = std::fmin(best, dist);
    }
    cost += best;
  }
  return cost;
}

/* e2e
[{"function": "kmeans_cost",
  "points": [[[0.1, 0.2, 1.9, 2.1, -1.0, 0.4, 2.3, 1.7, 0.5, -0.3], [0.0, 0.0, 2.0, 2.0], 5, 2, 2],
             [[0.3, 1.2, -0.8, 2.9, 0.1, 1.8], [0.0, 1.0, 3.0], 6, 3, 1]]},
 {"function": "kmeans_cost_fmin",
  "points": [[[0.1, 0.2, 1.9, 2.1, -1.0, 0.4, 2.3, 1.7, 0.5, -0.3], [0.0, 0.0, 2.0, 2.0], 5, 2, 2],
             [[0.3, 1.2, -0.8, 2.9, 0.1, 1.8], [0.0, 1.0, 3.0], 6, 3, 1]]}]
*/
