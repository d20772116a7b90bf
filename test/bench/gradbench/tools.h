// The derivative tools the suite compares: unfad's generated gradients (marked.cpp), hand-written
// adjoints (hand.cpp) and ADOL-C (adolc.cpp, when UNFAD_HAVE_ADOLC).
#pragma once

#include "ht.h"

#include <vector>

// marked.cpp and the gradients unfad writes after each marked function.
double gb_lse(const double *x, int n);
double gb_lse_grad(const double *x, int n, double *d_x);
double gb_llsq(const double *x, int m, int n);
double gb_llsq_grad(const double *x, int m, int n, double *d_x);
double gb_kmeans(const double *points, const double *centroids, int n, int k, int d);
double gb_kmeans_grad(const double *points, const double *centroids, int n, int k, int d, double *d_centroids);
// (d_centroids += the Hessian's diagonal)
double gb_kmeans_curvature_grad(const double *points, const double *centroids, int n, int k, int d,
                                double *d_centroids);
void gb_ode(const double *x, int n, int s, double *y);
void gb_ode_grad(const double *x, int n, int s, double *y, double *d_x, double *d_y);
double gb_det(const double *a, int ell);
double gb_det_grad(const double *a, int ell, double *d_a);
double gb_gmm(int d, int k, int n, const double *alpha, const double *mu, const double *q, const double *l,
              const double *x, double gamma, int m);
double gb_gmm_grad(int d, int k, int n, const double *alpha, const double *mu, const double *q, const double *l,
                   const double *x, double gamma, int m, double *d_alpha, double *d_mu, double *d_q, double *d_l);
void gb_ba(const double *cam, const double *X, const double *w, const double *feat, double *err);
void gb_ba_grad(const double *cam, const double *X, const double *w, const double *feat, double *err, double *d_cam,
                double *d_X, double *d_w, double *d_err);

double gb_lstm(int l, int c, int b, const double *main, const double *extra, const double *state, const double *sequence);
double gb_lstm_grad(int l, int c, int b, const double *main, const double *extra, const double *state,
                    const double *sequence, double *d_main, double *d_extra);

// ht (marked.cpp): the pose, and one point's residual against a vertex or a triangle's point.
void gb_ht_pose_grad(const double *theta, int bones, int vertices, const int *parents, const double *base_relatives,
                     const double *inverse_base_absolutes, const double *base_positions, const double *weights,
                     const int *triangles, bool mirrored, double *pose, double *d_theta, double *d_pose);
void gb_ht_pose_tangent_jvp(const double *theta, int bones, int vertices, const int *parents,
                            const double *base_relatives, const double *inverse_base_absolutes,
                            const double *base_positions, const double *weights, const int *triangles,
                            bool mirrored, double *pose, const double *d_theta, double *d_pose);
void gb_ht_vertex_residual_grad(const double *pose, int bones, int vertices, const int *parents,
                                const double *base_relatives, const double *inverse_base_absolutes,
                                const double *base_positions, const double *weights, const int *triangles,
                                bool mirrored, int vertex, const double *point, double *err, double *d_pose,
                                double *d_err);

// ht_jacobian.cpp: ht's objective (GradBench's shape) and its dense Jacobian from unfad's
// gradients, in GradBench's layout: 3 rows per point, row-major; columns: with us (the
// complicated variant) d/du0, d/du1 of the point's own u first, then the 26 of theta.
struct HtProblem {
  gb::HandModel model;
  int points = 0;
  const int *correspondences = nullptr;
  const double *observed = nullptr; // 3 per point
  const double *us = nullptr;       // 2 per point, or null (simple)
};
void ht_objective(const HtProblem &p, const double *theta, double *err);
void unfad_ht_jacobian(const HtProblem &p, const double *theta, double *J);

// hand.cpp: adjoints derived by hand (they overwrite g).
double hand_lse_grad(const double *x, int n, double *g);
double hand_llsq_grad(const double *x, int m, int n, double *g);
double hand_kmeans_grad(const double *points, const double *centroids, int n, int k, int d, double *g);
// g: alpha, mu, q, l concatenated.
double hand_gmm_grad(int d, int k, int n, const double *alpha, const double *mu, const double *q, const double *l,
                     const double *x, double gamma, int m, double *g);
// g: main then extra.
double hand_lstm_grad(int l, int c, int b, const double *main, const double *extra, const double *state,
                      const double *sequence, double *g);

// adolc.cpp: each workload taped once at the given input (adolc_tape_*), then the timed part:
// ADOL-C's drivers re-evaluating the tape (gradient(), vec_jac(), jacobian()).
int adolc_tape_lse(const std::vector<double> &x);
int adolc_tape_llsq(const std::vector<double> &x, int n);
int adolc_tape_kmeans(const std::vector<double> &points, const std::vector<double> &centroids, int n, int k, int d);
int adolc_tape_ode(const std::vector<double> &x, int s);
int adolc_tape_det(const std::vector<double> &a, int ell);
// gmm's independents are alpha, mu, q, l concatenated.
int adolc_tape_gmm(int d, int k, int n, const std::vector<double> &params, const std::vector<double> &x, double gamma,
                   int m);
// ba: one observation's tape, independents cam (11), X (3), w (1), feat (2); outputs err (2).
int adolc_tape_ba(const double *cam, const double *X, double w, const double *feat);
// lstm's independents are main then extra.
int adolc_tape_lstm(int l, int c, int b, const std::vector<double> &params, const std::vector<double> &state,
                    const std::vector<double> &sequence);
// ht: independents theta (26) then, when us is not null, us (2 per point); outputs err.
int adolc_tape_ht(const HtProblem &p, const double *theta);
// The Jacobian by ADOL-C's vector forward mode (fov_forward) with p directions: seed is n x p
// (row-major), J the m x p result (row-major).
void adolc_forward_jacobian(int tag, int m, int n, int p, const double *x, const double *seed, double *J);
void adolc_gradient(int tag, const std::vector<double> &x, std::vector<double> &g);
// y^T J for a tape with m outputs (reverse mode).
void adolc_vjp(int tag, int m, const std::vector<double> &x, const std::vector<double> &u, std::vector<double> &g);
// The m x n Jacobian (row-major) of a tape at x.
void adolc_jacobian(int tag, int m, int n, const double *x, double *J);
