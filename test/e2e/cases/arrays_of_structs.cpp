// Arrays of structs of floating fields as parameters: std::vector<Vec3>,
// const Vec3* with a count, std::array<Vec3, 3>, a const Pt2f x[] of floats,
// and an output std::vector<Vec3>&; a local std::vector<Vec3> written field
// by field and whole. The adjoint of an array of structs is an array of the
// same structs (std::vector<Vec3>& d_p, Vec3* d_p, std::array<Vec3, 3>& d_p).
#include <unfad/unfad.h>

#include <array>
#include <cmath>
#include <cstddef>
#include <vector>

struct Vec3 {
  double x, y, z;
};

struct Pt2f {
  float u;
  float v;
};

static double dist(const Vec3& a, const Vec3& b) {
  const double dx = b.x - a.x;
  const double dy = b.y - a.y;
  const double dz = b.z - a.z;
  return std::sqrt(dx * dx + dy * dy + dz * dz);
}

// A chain of springs of rest length 1 and stiffness k.
UNFAD_GRADIENT double spring_energy(const std::vector<Vec3>& p, double k) {
  double e = 0.0;
  for (std::size_t i = 0; i + 1 < p.size(); ++i) {
    const double stretch = dist(p[i], p[i + 1]) - 1.0;
    e += 0.5 * k * stretch * stretch;
  }
  return e;
}

// Squared norm of the centroid of n points.
UNFAD_GRADIENT double centroid_sq(const Vec3* p, int n) {
  Vec3 c{0.0, 0.0, 0.0};
  for (int i = 0; i < n; ++i) {
    c.x += p[i].x;
    c.y += p[i].y;
    c.z += p[i].z;
  }
  c.x /= n;
  c.y /= n;
  c.z /= n;
  return c.x * c.x + c.y * c.y + c.z * c.z;
}

// A local array of structs: even entries are written whole (then one field is
// updated), odd entries field by field; then all are read.
UNFAD_GRADIENT double local_points(const std::vector<double>& t, double r) {
  const int n = static_cast<int>(t.size());
  std::vector<Vec3> v(n);
  for (int i = 0; i < n; ++i) {
    if (i % 2 == 0) {
      v[i] = Vec3{r * std::cos(t[i]), r * std::sin(t[i]), t[i]};
      v[i].z += v[i].x * v[i].y;
    } else {
      v[i].x = r * t[i];
      v[i].y = std::exp(-t[i]);
      v[i].z = v[i].x * v[i].y;
    }
  }
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += v[i].x * v[i].y + v[i].z * v[i].z;
  return s;
}

// An output array of structs.
UNFAD_GRADIENT void scale_points(const std::vector<Vec3>& p, double s, std::vector<Vec3>& out) {
  for (std::size_t i = 0; i < p.size(); ++i) out[i] = Vec3{s * p[i].x, s * p[i].y, s * p[i].z};
}

// A std::array of structs, read through p[i].y and a const reference local.
UNFAD_GRADIENT double first_axis(const std::array<Vec3, 3>& p) {
  double s = 0.0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const Vec3& q = p[i];
    s += std::sin(p[i].y) * q.x + q.z * q.y;
  }
  return s;
}

// Length of a polyline of float points.
UNFAD_GRADIENT float polyline_length(const Pt2f pts[], int n) {
  float len = 0.0f;
  for (int i = 0; i + 1 < n; ++i) {
    const float du = pts[i + 1].u - pts[i].u;
    const float dv = pts[i + 1].v - pts[i].v;
    len += std::sqrt(du * du + dv * dv);
  }
  return len;
}

/* e2e
[{"function": "spring_energy",
  "points": [[[[0.0, 0.0, 0.0], [1.5, 0.25, -0.5], [2.0, 1.75, 0.5], [1.25, 2.5, 2.0]], 3.0],
             [[[0.5, -1.0, 2.0], [-0.75, 0.5, 1.25], [0.3, 0.2, -0.6]], 0.75]],
  "value_formula": "sum(0.5*k*(sqrt(sum((p[i+1][m] - p[i][m])**2 for m in range(3))) - 1)**2 for i in range(len(p) - 1))",
  "grad_formula": [
    "(lambda D: [[sum(k*(D(j) - 1)/D(j)*(p[j+1][m] - p[j][m])*((i == j + 1) - (i == j)) for j in range(len(p) - 1)) for m in range(3)] for i in range(len(p))])(lambda j: sqrt(sum((p[j+1][m] - p[j][m])**2 for m in range(3))))",
    "sum(0.5*(sqrt(sum((p[i+1][m] - p[i][m])**2 for m in range(3))) - 1)**2 for i in range(len(p) - 1))"]},
 {"function": "centroid_sq",
  "points": [[[[1.0, 2.0, 3.0], [-0.5, 0.25, 1.5], [2.5, -1.75, 0.5]], 3],
             [[[0.75, -1.25, 2.0], [1.5, 0.5, -3.0]], 2]],
  "value_formula": "sum((sum(q[m] for q in p)/n)**2 for m in range(3))",
  "grad_formula": ["[[2*sum(q[m] for q in p)/(n*n) for m in range(3)] for i in range(n)]"]},
 {"function": "local_points",
  "points": [[[0.5, -1.25, 2.0, 0.75], 1.5], [[1.1, 0.4, -0.3], -0.8]],
  "value_formula": "sum((r*r*cos(t[i])*sin(t[i]) + (t[i] + r*r*cos(t[i])*sin(t[i]))**2) if i % 2 == 0 else (r*t[i]*exp(-t[i]) + (r*t[i]*exp(-t[i]))**2) for i in range(len(t)))",
  "grad_formula": [
    "[(r*r*cos(2*t[i]) + 2*(t[i] + r*r*cos(t[i])*sin(t[i]))*(1 + r*r*cos(2*t[i]))) if i % 2 == 0 else (1 + 2*r*t[i]*exp(-t[i]))*r*exp(-t[i])*(1 - t[i]) for i in range(len(t))]",
    "sum((2*r*cos(t[i])*sin(t[i])*(1 + 2*(t[i] + r*r*cos(t[i])*sin(t[i])))) if i % 2 == 0 else (1 + 2*r*t[i]*exp(-t[i]))*t[i]*exp(-t[i]) for i in range(len(t)))"]},
 {"function": "scale_points", "outputs": {"out": 3},
  "points": [[[[1.0, -2.0, 0.5], [0.25, 3.0, -1.5], [2.0, 0.75, 1.25]], 1.5],
             [[[-0.5, 1.25, 2.0], [1.75, -0.25, 0.5], [0.3, 0.6, -0.9]], -0.7]],
  "grad_formula": ["[[s*w_out[i][m] for m in range(3)] for i in range(3)]",
                   "sum(w_out[i][m]*p[i][m] for i in range(3) for m in range(3))"]},
 {"function": "first_axis",
  "points": [[[[1.0, 0.5, -2.0], [0.25, -1.5, 3.0], [2.0, 2.25, 0.75]]],
             [[[-1.5, 0.3, 0.6], [0.8, 1.2, -0.4], [1.1, -0.7, 2.5]]]],
  "value_formula": "sum(sin(q[1])*q[0] + q[2]*q[1] for q in p)",
  "grad_formula": ["[[sin(q[1]), cos(q[1])*q[0] + q[2], q[1]] for q in p]"]},
 {"function": "polyline_length",
  "points": [[[[0.0, 0.0], [1.5, 0.5], [2.0, 2.5], [0.75, 3.0]], 4],
             [[[1.0, -1.0], [-0.5, 0.25], [0.25, 1.75]], 3]],
  "value_formula": "sum(hypot(pts[i+1][0] - pts[i][0], pts[i+1][1] - pts[i][1]) for i in range(n - 1))",
  "grad_formula": [
    "[[sum((pts[j+1][m] - pts[j][m])/hypot(pts[j+1][0] - pts[j][0], pts[j+1][1] - pts[j][1])*((i == j + 1) - (i == j)) for j in range(n - 1)) for m in range(2)] for i in range(n)]"]}]
*/
