// ht's dense Jacobian from unfad's forward-mode tangents and reverse-mode gradients, chained by hand.
//
// A residual depends on theta only through the pose (the bones' skinning transforms and the
// global transform, 12 bones + 12 values), so
//   d err_r / d theta = (d err_r / d pose) (d pose / d theta):
// - d pose / d theta (pose size x 26) once per Jacobian: forward mode, one tangent of the pose
//   per column (gb_ht_pose_tangent_jvp along each unit direction of theta);
// - per point, three gradients of its residual (one per coordinate) give d err_r / d pose and,
//   for the complicated variant, d err_r / d u; the row is then the (sparse: only the bones
//   skinning the point's vertices, and the global transform) product with d pose / d theta.
// Running the whole objective's gradient once per row instead would skin every vertex of the
// hand 3 x points times.
#include "tools.h"

#include <algorithm>
#include <vector>

void ht_objective(const HtProblem &p, const double *theta, double *err) {
  gb::ht_objective(theta, p.us, p.model, p.points, p.correspondences, p.observed, err);
}

namespace {

constexpr int kTheta = 26;

// The model's arrays as the marked functions take them.
#define HT_MODEL_ARGS(m)                                                                                               \
  m.bones, m.vertices, m.parents, m.base_relatives, m.inverse_base_absolutes, m.base_positions, m.weights,          \
      m.triangles, m.mirrored

// The pose at theta, and its Jacobian (pose size x 26, row-major) by forward mode: column c is
// the pose's tangent along theta's unit direction c (one sweep each; reverse mode needed one
// gradient per pose value, a unit cotangent on each in turn).
void poseJacobian(const gb::HandModel &m, const double *theta, std::vector<double> &pose,
                  std::vector<double> &jacobian, std::vector<double> &dpose) {
  const int size = gb::ht_pose_size(m.bones);
  pose.resize(size);
  dpose.resize(size);
  jacobian.assign(size * kTheta, 0.0);
  double direction[kTheta] = {};
  for (int c = 0; c < kTheta; ++c) {
    direction[c] = 1.0;
    gb_ht_pose_tangent_jvp(theta, HT_MODEL_ARGS(m), pose.data(), direction, dpose.data());
    direction[c] = 0.0;
    for (int k = 0; k < size; ++k) jacobian[k * kTheta + c] = dpose[k];
  }
}

} // namespace

void unfad_ht_jacobian(const HtProblem &p, const double *theta, double *J) {
  const gb::HandModel &m = p.model;
  thread_local std::vector<double> pose, dPose, dpose;
  poseJacobian(m, theta, pose, dPose, dpose);
  const int size = gb::ht_pose_size(m.bones);
  const int uColumns = p.us ? 2 : 0, columns = uColumns + kTheta;
  double err[3];
  for (int i = 0; i < p.points; ++i)
    for (int j = 0; j < 3; ++j) {
      double *row = J + (3 * i + j) * columns;
      double derr[3] = {0.0, 0.0, 0.0};
      derr[j] = 1.0;
      std::fill(dpose.begin(), dpose.end(), 0.0);
      if (p.us) {
        row[0] = row[1] = 0.0;
        gb_ht_surface_residual_grad(pose.data(), HT_MODEL_ARGS(m), p.correspondences[i], p.us + 2 * i,
                                    p.observed + 3 * i, err, dpose.data(), row, derr);
      } else {
        gb_ht_vertex_residual_grad(pose.data(), HT_MODEL_ARGS(m), p.correspondences[i], p.observed + 3 * i, err,
                                   dpose.data(), derr);
      }
      double *dtheta = row + uColumns;
      std::fill(dtheta, dtheta + kTheta, 0.0);
      for (int k = 0; k < size; ++k) {
        const double w = dpose[k];
        if (w == 0.0) continue; // bones with no weight on the point's vertices
        const double *from = &dPose[k * kTheta];
        for (int c = 0; c < kTheta; ++c) dtheta[c] += w * from[c];
      }
    }
}
