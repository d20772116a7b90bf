// The marked wrappers: each instantiates a workload of workloads.h at double and is marked for
// unfad, which writes `<name>_grad` after it (the CMake step in CMakeLists.txt differentiates
// this file with the freshly built unfad).
#include <unfad/unfad.h>

#include "ht.h"
#include "workloads.h"

UNFAD_GRADIENT double gb_lse(const double *x, int n) { return gb::lse(x, n); }

UNFAD_GRADIENT double gb_llsq(const double *x, int m, int n) { return gb::llsq(x, m, n); }

UNFAD_GRADIENT_WRT(centroids)
double gb_kmeans(const double *points, const double *centroids, int n, int k, int d) {
  return gb::kmeans_cost(points, centroids, n, k, d);
}

// The k-means Hessian is diagonal (2 x the cluster's size on its centroid's coordinates), so it is
// H times a vector of ones: the gradient of the sum of the gradient's entries, a second derivative
// unfad takes by differentiating the gb_kmeans_grad it generates (README, "Second derivatives").
UNFAD_GRADIENT_WRT(centroids)
double gb_kmeans_curvature(const double *points, const double *centroids, int n, int k, int d) {
  std::vector<double> g(k * d, 0.0);
  gb_kmeans_grad(points, centroids, n, k, d, g.data());
  double s = 0.0;
  for (int i = 0; i < k * d; ++i) s += g[i];
  return s;
}

UNFAD_GRADIENT_WRT(x, y) void gb_ode(const double *x, int n, int s, double *y) { gb::ode_solve(x, n, s, y); }

UNFAD_GRADIENT double gb_det(const double *a, int ell) { return gb::det_by_minors(a, ell); }

UNFAD_GRADIENT_WRT(alpha, mu, q, l)
double gb_gmm(int d, int k, int n, const double *alpha, const double *mu, const double *q, const double *l,
              const double *x, double gamma, int m) {
  return gb::gmm_objective(d, k, n, alpha, mu, q, l, x, gamma, m);
}

UNFAD_GRADIENT_WRT(cam, X, w, err)
void gb_ba(const double *cam, const double *X, const double *w, const double *feat, double *err) {
  gb::ba_project(cam, X, w, feat, err);
}

UNFAD_GRADIENT_WRT(main, extra)
double gb_lstm(int l, int c, int b, const double *main, const double *extra, const double *state, const double *sequence) {
  return gb::lstm_objective(l, c, b, main, extra, state, sequence);
}

// ht: the Jacobian is chained by hand (ht_jacobian.cpp) from the pose's tangents (theta -> the
// bone transforms and the global transform) and one vertex's residual's gradients (pose -> 3
// errors).
// The model's arrays come one by one: unfad refuses a struct of pointers (gb::HandModel) as a
// parameter of a marked function ("supported as local variables ... and parameters of
// helpers, not here"), so each wrapper builds it as a local.
UNFAD_GRADIENT_WRT(theta, pose)
void gb_ht_pose(const double *theta, int bones, int vertices, const int *parents, const double *base_relatives,
                const double *inverse_base_absolutes, const double *base_positions, const double *weights,
                const int *triangles, bool mirrored, double *pose) {
  const gb::HandModel model = {bones,          vertices, parents,   base_relatives, inverse_base_absolutes,
                               base_positions, weights,  triangles, mirrored};
  gb::ht_pose(theta, model, pose);
}

// The same pose in forward mode: d pose / d theta one column (one direction of theta) per
// call of gb_ht_pose_tangent_jvp, 26 in all, instead of one gradient per pose value (276).
UNFAD_JVP_WRT(theta, pose)
void gb_ht_pose_tangent(const double *theta, int bones, int vertices, const int *parents,
                        const double *base_relatives, const double *inverse_base_absolutes,
                        const double *base_positions, const double *weights, const int *triangles, bool mirrored,
                        double *pose) {
  const gb::HandModel model = {bones,          vertices, parents,   base_relatives, inverse_base_absolutes,
                               base_positions, weights,  triangles, mirrored};
  gb::ht_pose(theta, model, pose);
}

UNFAD_GRADIENT_WRT(pose, err)
void gb_ht_vertex_residual(const double *pose, int bones, int vertices, const int *parents,
                           const double *base_relatives, const double *inverse_base_absolutes,
                           const double *base_positions, const double *weights, const int *triangles, bool mirrored,
                           int vertex, const double *point, double *err) {
  const gb::HandModel model = {bones,          vertices, parents,   base_relatives, inverse_base_absolutes,
                               base_positions, weights,  triangles, mirrored};
  gb::ht_vertex_residual(pose, model, vertex, point, err);
}
