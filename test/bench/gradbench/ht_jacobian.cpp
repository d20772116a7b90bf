// ht's dense Jacobian from unfad's forward-mode tangents and reverse-mode gradients, chained by hand.
//
// A residual depends on theta only through the pose (the bones' skinning transforms and the
// global transform, 12 bones + 12 values), so
//   d err_r / d theta = (d err_r / d pose) (d pose / d theta):
// - d pose / d theta (pose size x 26) once per Jacobian: forward mode, one tangent of the pose
//   per column (gb_ht_pose_tangent_jvp along each unit direction of theta);
// - per vertex a point reads, once: three gradients of its position (one per coordinate, reverse
//   mode) give d position / d pose, and the (sparse: only the bones skinning the vertex, and the
//   global transform) product with d pose / d theta its Jacobian;
// - a point's rows are then minus its vertex's Jacobian (simple) or minus its triangle's corners'
//   Jacobians blended by u, with d err / d u from the corners' positions (complicated).
// Running the whole objective's gradient once per row instead would skin every vertex of the
// hand 3 x points times; one residual's gradients per point (the first version) skinned a vertex
// 3 x as often as points use it, and large ht has far more points than the hand has vertices.
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

// Vertex v's position and its Jacobian d position / d theta (3 x 26, row-major), computed once
// per vertex the points read (many points share a vertex: large ht has far more points than the
// hand has vertices), in `positions` / `jacobians` at the slot `slots[v]` returns.
class VertexJacobians {
public:
  VertexJacobians(const gb::HandModel &m, const std::vector<double> &pose, const std::vector<double> &poseJacobian)
      : m_(m), pose_(pose), poseJacobian_(poseJacobian), slots_(m.vertices, -1) {}

  int slot(int v) {
    if (slots_[v] >= 0) return slots_[v];
    const int s = slots_[v] = static_cast<int>(positions_.size() / 3);
    positions_.resize(positions_.size() + 3);
    jacobians_.resize(jacobians_.size() + 3 * kTheta);
    // The residual against the origin is -position: its gradient along -e_j is d position_j / d pose.
    const double origin[3] = {0.0, 0.0, 0.0};
    double err[3];
    const int size = gb::ht_pose_size(m_.bones);
    for (int j = 0; j < 3; ++j) {
      double derr[3] = {0.0, 0.0, 0.0};
      derr[j] = -1.0;
      dpose_.assign(size, 0.0);
      gb_ht_vertex_residual_grad(pose_.data(), HT_MODEL_ARGS(m_), v, origin, err, dpose_.data(), derr);
      double *row = &jacobians_[(3 * s + j) * kTheta];
      std::fill(row, row + kTheta, 0.0);
      for (int k = 0; k < size; ++k) {
        const double w = dpose_[k];
        if (w == 0.0) continue; // bones with no weight on the vertex
        const double *from = &poseJacobian_[k * kTheta];
        for (int c = 0; c < kTheta; ++c) row[c] += w * from[c];
      }
    }
    for (int j = 0; j < 3; ++j) positions_[3 * s + j] = -err[j];
    return s;
  }
  const double *position(int s) const { return &positions_[3 * s]; }
  const double *jacobianRow(int s, int j) const { return &jacobians_[(3 * s + j) * kTheta]; }

private:
  const gb::HandModel &m_;
  const std::vector<double> &pose_, &poseJacobian_;
  std::vector<int> slots_;
  std::vector<double> positions_, jacobians_, dpose_;
};

} // namespace

// Point i's residual is point - position (simple) or point - (u0 a + u1 b + (1 - u0 - u1) c) for
// the corners a, b, c of its triangle (complicated): its rows are minus the vertices' Jacobians,
// blended by u, and (complicated) d err / d u = -(a - c), -(b - c).
void unfad_ht_jacobian(const HtProblem &p, const double *theta, double *J) {
  const gb::HandModel &m = p.model;
  thread_local std::vector<double> pose, dPose, dpose;
  poseJacobian(m, theta, pose, dPose, dpose);
  VertexJacobians vertices(m, pose, dPose);
  const int uColumns = p.us ? 2 : 0, columns = uColumns + kTheta;
  for (int i = 0; i < p.points; ++i) {
    if (!p.us) {
      const int s = vertices.slot(p.correspondences[i]);
      for (int j = 0; j < 3; ++j) {
        const double *from = vertices.jacobianRow(s, j);
        double *row = J + (3 * i + j) * columns;
        for (int c = 0; c < kTheta; ++c) row[c] = -from[c];
      }
      continue;
    }
    const int *corner = m.triangles + 3 * p.correspondences[i];
    const int a = vertices.slot(corner[0]), b = vertices.slot(corner[1]), c = vertices.slot(corner[2]);
    const double u0 = p.us[2 * i], u1 = p.us[2 * i + 1], u2 = 1.0 - u0 - u1;
    for (int j = 0; j < 3; ++j) {
      double *row = J + (3 * i + j) * columns;
      const double pc = vertices.position(c)[j];
      row[0] = -(vertices.position(a)[j] - pc);
      row[1] = -(vertices.position(b)[j] - pc);
      const double *ja = vertices.jacobianRow(a, j), *jb = vertices.jacobianRow(b, j), *jc = vertices.jacobianRow(c, j);
      for (int k = 0; k < kTheta; ++k) row[2 + k] = -(u0 * ja[k] + u1 * jb[k] + u2 * jc[k]);
    }
  }
}
