// Fixed-size tables (std::array<std::array<double, 3>, 3>, double m[2][3])
// held by the function, as geometry code writes them: helpers returning a
// rotation matrix (`Mat3 rot_z(double)`, by braces or by filling a local),
// composing them (`mul(rot_z(a), rot_x(b))`, `R = mul(R, ...)` in a loop),
// passing them to helpers by reference, by value and as an output
// (`void rotation(double, Mat3& R)` with `R = {}`), copying one
// (`Mat3 C = R;`, `Mat3 C = M;` of a parameter), range-for over their rows, and rows passed where an
// array is expected (`sum3(m[1])`, `scale3(m[0], s)` writing the row,
// `norm(pts[i])`). Each was refused ("functions returning arrays of arrays
// are not supported yet", "local arrays of arrays can only be indexed").
// A table is one flat buffer in the IR; a helper given one is inlined with
// its parameter held flat too, and a row is a view into the buffer.
#include <unfad/unfad.h>

#include <array>
#include <cmath>

using Vec3 = std::array<double, 3>;
using Mat3 = std::array<std::array<double, 3>, 3>;

static Mat3 rot_z(double t) {
  Mat3 R{};
  R[0][0] = std::cos(t);
  R[0][1] = -std::sin(t);
  R[1][0] = std::sin(t);
  R[1][1] = std::cos(t);
  R[2][2] = 1;
  return R;
}

static Mat3 rot_x(double t) {
  const double c = std::cos(t), s = std::sin(t);
  return {{{1, 0, 0}, {0, c, -s}, {0, s, c}}};
}

static Mat3 mul(const Mat3& A, const Mat3& B) {
  Mat3 C{};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 3; ++k) C[i][j] += A[i][k] * B[k][j];
  return C;
}

static Mat3 transpose(const Mat3& A) {
  Mat3 T;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) T[i][j] = A[j][i];
  return T;
}

static Vec3 rotate(const Mat3& R, const Vec3& v) {
  Vec3 w{};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) w[i] += R[i][j] * v[j];
  return w;
}

static void rotation(double t, Mat3& R) {
  R = {};
  R[0][0] = std::cos(t);
  R[0][1] = -std::sin(t);
  R[1][0] = std::sin(t);
  R[1][1] = std::cos(t);
  R[2][2] = 1;
}

static Mat3 scaled(Mat3 A, double s) {
  for (auto& row : A)
    for (double& v : row) v *= s;
  return A;
}

static double quad(const Mat3& A, const Vec3& v) {
  double s = 0;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) s += v[i] * A[i][j] * v[j];
  return s;
}

UNFAD_GRADIENT double weighted_rotation(double t, const double* v) {
  Mat3 R = rot_z(t);
  double s = 0;
  for (int i = 0; i < 3; ++i) {
    double w = 0;
    for (int j = 0; j < 3; ++j) w += R[i][j] * v[j];
    s += w * w * (i + 1);
  }
  return s;
}

UNFAD_GRADIENT double pose_error(double a, double b, const Vec3& p, const Vec3& target) {
  const Mat3 R = mul(rot_z(a), rot_x(b));
  const Vec3 q = rotate(R, p);
  double e = 0;
  for (int i = 0; i < 3; ++i) e += (q[i] - target[i]) * (q[i] - target[i]);
  return e;
}

UNFAD_GRADIENT double chain(const double* angles, int n, const Vec3& p) {
  Mat3 R = rot_z(0.0);
  for (int k = 0; k < n; ++k) {
    if (k % 2) R = mul(R, rot_x(angles[k]));
    else R = mul(R, rot_z(angles[k]));
  }
  const Vec3 q = rotate(R, p);
  return q[0] + 2 * q[1] + 3 * q[2];
}

UNFAD_GRADIENT double transposed(const Mat3& M, const Vec3& v) {
  const Mat3 T = transpose(M);
  return quad(T, v) * quad(M, v);
}

UNFAD_GRADIENT double output_and_by_value(double t, const Vec3& v) {
  Mat3 R;
  rotation(t, R);
  const Mat3 S = scaled(R, 2.0);
  return quad(S, v) + S[0][1] * S[1][0];
}

UNFAD_GRADIENT double copied(double t, const Vec3& v) {
  Mat3 R;
  rotation(t, R);
  Mat3 C = R;
  C[0][0] += 1.0;
  return quad(C, v) + quad(R, v);
}

UNFAD_GRADIENT double copy_of_parameter(const Mat3& M, const Vec3& v) {
  Mat3 C = M;
  for (int i = 0; i < 3; ++i) C[i][i] += v[i];
  return quad(C, v);
}

static double sum3(const double* r) { return r[0] + r[1] * r[1] + r[2]; }
static void scale3(double* r, double s) {
  for (int j = 0; j < 3; ++j) r[j] *= s;
}
static double norm(const Vec3& v) { return std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]); }

UNFAD_GRADIENT double c_rows(double x, double y) {
  double m[2][3] = {{x, 2 * x, 3 * x}, {y, x * y, x}};
  scale3(m[0], y);
  return sum3(m[1]) * sum3(m[0]);
}

UNFAD_GRADIENT double point_rows(const double* p, int n) {
  std::array<Vec3, 4> pts{};
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 3; ++j) pts[i][j] = p[(i * 3 + j) % n] * (i + 1);
  double s = 0;
  for (const auto& q : pts) s += norm(q);
  for (int i = 0; i < 4; ++i) s += norm(pts[i]) * i;
  return s;
}

/* e2e
[{"function": "weighted_rotation", "points": [[0.7, [1.0, -0.5, 2.0]], [-2.1, [0.3, 0.4, 0.5]]],
  "grad_formula": ["2*(v[0]*cos(t) - v[1]*sin(t))*(v[0]*sin(t) + v[1]*cos(t))",
                   "[2*(v[0]*cos(t) - v[1]*sin(t))*cos(t) + 4*(v[0]*sin(t) + v[1]*cos(t))*sin(t), -2*(v[0]*cos(t) - v[1]*sin(t))*sin(t) + 4*(v[0]*sin(t) + v[1]*cos(t))*cos(t), 6*v[2]]"]},
 {"function": "pose_error", "points": [[0.7, -0.3, [1.0, -0.5, 2.0], [0.2, 0.1, 1.5]]]},
 {"function": "chain", "points": [[[0.3, -0.8, 1.2, 0.4], 4, [1.0, -0.5, 2.0]], [[0.9], 1, [0.5, 0.5, 0.5]]]},
 {"function": "transposed", "points": [[[[1, 2, 0.5], [0.3, -1, 2], [0.7, 0.2, 1.1]], [1.0, -0.5, 2.0]]]},
 {"function": "output_and_by_value", "points": [[0.7, [1.0, -0.5, 2.0]]]},
 {"function": "copied", "points": [[0.7, [1.0, -0.5, 2.0]]]},
 {"function": "copy_of_parameter", "points": [[[[1, 2, 0.5], [0.3, -1, 2], [0.7, 0.2, 1.1]], [1.0, -0.5, 2.0]]]},
 {"function": "c_rows", "points": [[0.7, -1.3]]},
 {"function": "point_rows", "points": [[[0.3, -1.2, 2.0, 0.4, 1.1], 5]]}]
*/
