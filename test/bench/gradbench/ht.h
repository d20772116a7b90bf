// ht: ADBench's hand tracking (GradBench's evals/ht/README.md; ADBench, arXiv 1807.10129),
// written for unfad from its definition with plain arrays: a skinned hand model posed by 26
// parameters theta (global rotation 3, global translation 3, then per finger 4 joint angles),
// and the residuals between observed 3-D points and the posed hand's surface.
//
//   pose:     per bone, Euler angles (zero for the bones theta does not move) give a rotation;
//             the bone's posed relative transform is its base relative transform times it, and
//             the absolute transforms follow the parent array down the tree. A bone's skinning
//             transform is its absolute transform times its inverse base absolute transform.
//   skinning: a vertex is the weighted sum of its base position under every bone's skinning
//             transform (linear blend skinning), mirrored in x for a left hand, then moved by
//             the global rotation (Rodrigues) and translation (GradBench's global scale is 1).
//   residual: point_i - vertex(correspondence_i) ("simple"), or, with us ("complicated"),
//             point_i - (u0 a + u1 b + (1 - u0 - u1) c) on the triangle correspondence_i.
//
// The templates are instantiated at double (the primal; unfad differentiates the marked pose
// and residual functions of marked.cpp) and at ADOL-C's adouble (adolc.cpp).
#pragma once

#include <cmath>
#include <vector>

namespace gb {

// The hand model: arrays owned by the caller.
struct HandModel {
  int bones = 0, vertices = 0;
  const int *parents = nullptr;                  // bones; a parent comes before its children, -1 at the root
  const double *base_relatives = nullptr;        // bones x 4 x 4, row-major
  const double *inverse_base_absolutes = nullptr; // bones x 4 x 4, row-major
  const double *base_positions = nullptr;        // vertices x 3
  const double *weights = nullptr;               // vertices x bones
  const int *triangles = nullptr;                // 3 vertices per triangle
  bool mirrored = false;
};

// The pose vector: per bone the top three rows of its skinning transform (12 values, row-major),
// then the global rotation (3 x 3, row-major) and the global translation.
inline int ht_pose_size(int bones) { return 12 * bones + 12; }

// R = Rz(tz) Ry(ty) Rx(tx) from a bone's angles stored as (x, z, y), GradBench's order.
template <class T> void ht_euler_to_rotation(const T *xzy, T *R) {
  const T cx = cos(xzy[0]), sx = sin(xzy[0]);
  const T cz = cos(xzy[1]), sz = sin(xzy[1]);
  const T cy = cos(xzy[2]), sy = sin(xzy[2]);
  R[0] = cz * cy;
  R[1] = cz * sy * sx - sz * cx;
  R[2] = cz * sy * cx + sz * sx;
  R[3] = sz * cy;
  R[4] = sz * sy * sx + cz * cx;
  R[5] = sz * sy * cx - cz * sx;
  R[6] = -sy;
  R[7] = cy * sx;
  R[8] = cy * cx;
}

// Rodrigues' formula: the rotation by |w| about w / |w| (the identity for a tiny angle).
template <class T> void ht_angle_axis_to_rotation(const T *w, T *R) {
  const T norm = sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
  if (norm < 1e-4) {
    for (int i = 0; i < 9; ++i) R[i] = i % 4 == 0 ? 1.0 : 0.0;
  } else {
    const T x = w[0] / norm, y = w[1] / norm, z = w[2] / norm;
    const T s = sin(norm), c = cos(norm);
    R[0] = x * x + (1.0 - x * x) * c;
    R[1] = x * y * (1.0 - c) - z * s;
    R[2] = x * z * (1.0 - c) + y * s;
    R[3] = x * y * (1.0 - c) + z * s;
    R[4] = y * y + (1.0 - y * y) * c;
    R[5] = y * z * (1.0 - c) - x * s;
    R[6] = x * z * (1.0 - c) - y * s;
    R[7] = y * z * (1.0 - c) + x * s;
    R[8] = z * z + (1.0 - z * z) * c;
  }
}

// Which joint angles theta moves: per finger f (bones 1 + 4f .. 4 + 4f), the second bone turns
// about x and z, the third and fourth about x; the wrist, each finger's first bone and any
// further bone (the forearm) stay as modelled.
template <class T> void ht_bone_angles(const T *theta, int bones, T *angles) {
  for (int i = 0; i < 3 * bones; ++i) angles[i] = 0.0;
  int next = 6;
  for (int finger = 0; finger < 5; ++finger) {
    const int bone = 2 + 4 * finger;
    angles[3 * bone] = theta[next];
    angles[3 * bone + 1] = theta[next + 1];
    angles[3 * (bone + 1)] = theta[next + 2];
    angles[3 * (bone + 2)] = theta[next + 3];
    next += 4;
  }
}

// The pose (see ht_pose_size) from theta: the bone chain, then the global transform.
template <class T> void ht_pose(const T *theta, const HandModel &model, T *pose) {
  const int bones = model.bones;
  std::vector<T> angles(3 * bones), absolutes(16 * bones);
  ht_bone_angles(theta, bones, angles.data());
  for (int b = 0; b < bones; ++b) {
    T R[9];
    ht_euler_to_rotation(&angles[3 * b], R);
    // The posed relative transform: the base relative transform times the rotation.
    const double *base = model.base_relatives + 16 * b;
    T relative[16];
    for (int r = 0; r < 4; ++r) {
      for (int c = 0; c < 3; ++c)
        relative[4 * r + c] = base[4 * r] * R[c] + base[4 * r + 1] * R[3 + c] + base[4 * r + 2] * R[6 + c];
      relative[4 * r + 3] = base[4 * r + 3];
    }
    const int parent = model.parents[b];
    for (int r = 0; r < 4; ++r)
      for (int c = 0; c < 4; ++c) {
        if (parent < 0) {
          absolutes[16 * b + 4 * r + c] = relative[4 * r + c];
        } else {
          T sum = 0.0;
          for (int k = 0; k < 4; ++k) sum += absolutes[16 * parent + 4 * r + k] * relative[4 * k + c];
          absolutes[16 * b + 4 * r + c] = sum;
        }
      }
    // The skinning transform's top three rows (the last row of an affine transform is fixed).
    const double *inverse = model.inverse_base_absolutes + 16 * b;
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 4; ++c) {
        T sum = 0.0;
        for (int k = 0; k < 4; ++k) sum += absolutes[16 * b + 4 * r + k] * inverse[4 * k + c];
        pose[12 * b + 4 * r + c] = sum;
      }
  }
  ht_angle_axis_to_rotation(theta, pose + 12 * bones);
  for (int i = 0; i < 3; ++i) pose[12 * bones + 9 + i] = theta[3 + i];
}

// Vertex v of the posed hand: linear blend skinning over every bone, the mirroring, then the
// global rotation and translation.
template <class T> void ht_skin_vertex(const T *pose, const HandModel &model, int v, T *out) {
  const int bones = model.bones;
  const double *base = model.base_positions + 3 * v;
  const double *weight = model.weights + bones * v;
  T p[3] = {0.0, 0.0, 0.0};
  for (int b = 0; b < bones; ++b) {
    const T *A = pose + 12 * b;
    for (int i = 0; i < 3; ++i)
      p[i] += weight[b] * (A[4 * i] * base[0] + A[4 * i + 1] * base[1] + A[4 * i + 2] * base[2] + A[4 * i + 3]);
  }
  if (model.mirrored) p[0] = -p[0];
  const T *R = pose + 12 * bones;
  const T *t = R + 9;
  for (int i = 0; i < 3; ++i) out[i] = R[3 * i] * p[0] + R[3 * i + 1] * p[1] + R[3 * i + 2] * p[2] + t[i];
}

// The residual of one observed point against vertex `vertex` ("simple").
template <class T>
void ht_vertex_residual(const T *pose, const HandModel &model, int vertex, const double *point, T *err) {
  T v[3];
  ht_skin_vertex(pose, model, vertex, v);
  for (int j = 0; j < 3; ++j) err[j] = point[j] - v[j];
}

// The objective in GradBench's shape: every vertex of the hand is skinned, then the residuals
// read the vertices they need. us: 2 per point, or null for the simple variant. err: 3 per point.
template <class T>
void ht_objective(const T *theta, const T *us, const HandModel &model, int points, const int *correspondences,
                  const double *observed, T *err) {
  std::vector<T> pose(ht_pose_size(model.bones)), positions(3 * model.vertices);
  ht_pose(theta, model, pose.data());
  for (int v = 0; v < model.vertices; ++v) ht_skin_vertex(pose.data(), model, v, &positions[3 * v]);
  for (int i = 0; i < points; ++i) {
    const double *point = observed + 3 * i;
    if (us) {
      const int *corner = model.triangles + 3 * correspondences[i];
      const T *u = us + 2 * i;
      for (int j = 0; j < 3; ++j)
        err[3 * i + j] = point[j] - (u[0] * positions[3 * corner[0] + j] + u[1] * positions[3 * corner[1] + j] +
                                     (1.0 - u[0] - u[1]) * positions[3 * corner[2] + j]);
    } else {
      for (int j = 0; j < 3; ++j) err[3 * i + j] = point[j] - positions[3 * correspondences[i] + j];
    }
  }
}

} // namespace gb
