// Pointers as views into arrays, in the shapes of mixture models and
// k-means: a row pointer local `const double* xi = x + i * d` and
// `&means[c * d]` passed to a helper that takes pointers, and a row pointer
// `&pts[i * d]` read inside a min over centroids.
#include <unfad/unfad.h>

#include <cmath>

static double squared_distance(const double* a, const double* b, int d) {
  double s = 0.0;
  for (int j = 0; j < d; ++j) {
    const double t = a[j] - b[j];
    s += t * t;
  }
  return s;
}

UNFAD_GRADIENT double mixture(const double* x, const double* means, int n, int k, int d) {
  double total = 0.0;
  for (int i = 0; i < n; ++i) {
    const double* xi = x + i * d;
    double acc = 0.0;
    for (int c = 0; c < k; ++c) acc += std::exp(-0.5 * squared_distance(xi, &means[c * d], d));
    total += std::log(acc);
  }
  return total;
}

UNFAD_GRADIENT double kmeans_cost(const double* pts, const double* centers, int n, int k, int d) {
  double cost = 0.0;
  for (int i = 0; i < n; ++i) {
    const double* p = &pts[i * d];
    double best = INFINITY;
    for (int c = 0; c < k; ++c) {
      const double* q = centers + c * d;
      double dist = 0.0;
      for (int j = 0; j < d; ++j) dist += (p[j] - q[j]) * (p[j] - q[j]);
      best = std::fmin(best, dist);
    }
    cost += best;
  }
  return cost;
}

/* e2e
[{"function": "mixture",
  "points": [[[0.5, -1.0, 0.25, 1.5, -0.75, 0.1], [0.0, 0.5, 1.0, -1.0], 3, 2, 2],
             [[1.0, 2.0, 3.0], [0.5, 1.0, 1.5, 2.5, 2.0, 3.5], 1, 2, 3]],
  "value_formula": "sum(log(sum(exp(-0.5 * sum((x[i*d+j] - means[c*d+j])**2 for j in range(d))) for c in range(k))) for i in range(n))"},
 {"function": "kmeans_cost",
  "points": [[[0.5, -1.0, 0.25, 1.5, -0.75, 0.1], [0.0, 0.5, 1.0, -1.0], 3, 2, 2],
             [[1.0, 2.0, 3.0, 0.0, 0.5, -0.5], [0.5, 1.0, 1.5, 2.5, 2.0, 3.5], 2, 2, 3]],
  "value_formula": "sum(min(sum((pts[i*d+j] - centers[c*d+j])**2 for j in range(d)) for c in range(k)) for i in range(n))",
  "grad_formula": ["[2 * (pts[i] - centers[min(range(k), key=lambda c: sum((pts[(i//d)*d+j] - centers[c*d+j])**2 for j in range(d)))*d + i % d]) for i in range(n*d)]",
                   "[sum(-2 * (pts[p*d + i % d] - centers[i]) for p in range(n) if min(range(k), key=lambda c: sum((pts[p*d+j] - centers[c*d+j])**2 for j in range(d))) == i // d) for i in range(k*d)]"]}]
*/
