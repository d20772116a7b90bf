// Hand-written adjoints (derived by us from the definitions in workloads.h). Each overwrites g
// with the gradient and returns the primal value.
#include "tools.h"

#include <cmath>

double hand_lse_grad(const double *x, int n, double *g) {
  double a = x[0];
  for (int i = 1; i < n; ++i)
    if (x[i] > a) a = x[i];
  double s = 0.0;
  for (int i = 0; i < n; ++i) {
    g[i] = std::exp(x[i] - a);
    s += g[i];
  }
  const double inv = 1.0 / s;
  for (int i = 0; i < n; ++i) g[i] *= inv;
  return a + std::log(s);
}

// y = 1/2 sum_i r_i^2, r_i = s_i - sum_j x_j t_i^j, so dy/dx_j = -sum_i r_i t_i^j.
double hand_llsq_grad(const double *x, int m, int n, double *g) {
  for (int j = 0; j < m; ++j) g[j] = 0.0;
  double sum = 0.0;
  for (int i = 0; i < n; ++i) {
    const double t = -1.0 + i * 2.0 / (n - 1);
    const double s = t > 0 ? 1.0 : (t < 0 ? -1.0 : 0.0);
    double r = s, power = 1.0;
    for (int j = 0; j < m; ++j) {
      r -= x[j] * power;
      power *= t;
    }
    sum += r * r;
    power = 1.0;
    for (int j = 0; j < m; ++j) {
      g[j] -= r * power;
      power *= t;
    }
  }
  return 0.5 * sum;
}

// Each point contributes 2 (C_j - P_i) to its nearest centroid j (the first one on ties, as the
// primal's strict comparison picks).
double hand_kmeans_grad(const double *points, const double *centroids, int n, int k, int d, double *g) {
  for (int i = 0; i < k * d; ++i) g[i] = 0.0;
  double cost = 0.0;
  for (int i = 0; i < n; ++i) {
    const double *p = points + i * d;
    double closest = 0.0;
    int best = 0;
    for (int j = 0; j < k; ++j) {
      const double *c = centroids + j * d;
      double dist = 0.0;
      for (int l = 0; l < d; ++l) dist += (c[l] - p[l]) * (c[l] - p[l]);
      if (j == 0 || dist < closest) {
        closest = dist;
        best = j;
      }
    }
    cost += closest;
    for (int l = 0; l < d; ++l) g[best * d + l] += 2.0 * (centroids[best * d + l] - p[l]);
  }
  return cost;
}
