// A Vec3 class as C++ programmers write it: a constructor with a member
// initialiser list, a default constructor from default member initialisers,
// const methods (dot, norm, scaled), member and free operators (+, -, *,
// +=), a non-const method (add), objects as locals, parameters by value,
// by const reference and by reference, return values, arrays of them
// (std::vector<Vec3>) and a local accumulating over a loop. A Spring class
// with a constructor and a const method taking two points.
#include <unfad/unfad.h>

#include <cmath>
#include <cstddef>
#include <vector>

class Vec3 {
public:
  double x = 0.0;
  double y = 0.0;
  double z = 0.0;

  Vec3() = default;
  Vec3(double x, double y, double z) : x(x), y(y), z(z) {}

  double dot(const Vec3& o) const { return x * o.x + y * o.y + z * o.z; }
  double norm() const { return std::sqrt(dot(*this)); }
  Vec3 scaled(double s) const { return Vec3(s * x, s * y, s * z); }

  Vec3 operator+(const Vec3& o) const { return Vec3(x + o.x, y + o.y, z + o.z); }
  Vec3 operator-(const Vec3& o) const { return {x - o.x, y - o.y, z - o.z}; }
  Vec3& operator+=(const Vec3& o) {
    x += o.x;
    y += o.y;
    z += o.z;
    return *this;
  }
  // this += w * p
  void add(const Vec3& p, double w) {
    x += w * p.x;
    y += w * p.y;
    z += w * p.z;
  }
};

Vec3 operator*(double s, const Vec3& v) { return v.scaled(s); }

Vec3 cross(const Vec3& a, const Vec3& b) {
  return Vec3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}

class Spring {
public:
  Spring(double stiffness, double rest) : k(stiffness), rest(rest) {}
  double energy(const Vec3& a, const Vec3& b) const {
    const double stretch = (b - a).norm() - rest;
    return 0.5 * k * stretch * stretch;
  }

  double k;
  double rest;
};

// Locals built by constructors, methods and operators.
UNFAD_GRADIENT double triangle_area(double ax, double ay, double bx, double by, double cz) {
  const Vec3 a(ax, ay, 0.0);
  const Vec3 b{bx, by, 0.5};
  Vec3 c;
  c.z = cz;
  const Vec3 n = cross(b - a, c - a);
  return 0.5 * n.norm();
}

// Parameters by value, by const reference and by reference; a local
// accumulating with +=; a class value returned.
static double weighted(Vec3 u, const Vec3& v, double w) {
  Vec3 acc;
  acc += u;
  acc += w * v;
  acc = acc + u.scaled(w);
  return acc.dot(v) + acc.norm();
}

static void nudge(Vec3& p, const Vec3& d) { p += 0.5 * d; }

static Vec3 mirrored(const Vec3& v) { return Vec3(-v.x, v.y, -v.z); }

UNFAD_GRADIENT double weighted_sum(const std::vector<double>& a, double w) {
  const Vec3 u(a[0], a[1], a[2]);
  Vec3 v(a[3], a[4], a[5]);
  nudge(v, mirrored(u));
  return weighted(u, v, w);
}

// A std::vector<Vec3> parameter and a local accumulating through a
// non-const method in a loop.
UNFAD_GRADIENT double centroid_norm(const std::vector<Vec3>& pts, const std::vector<double>& w) {
  Vec3 c;
  double total = 0.0;
  for (std::size_t i = 0; i < pts.size(); ++i) {
    c.add(pts[i], w[i]);
    total += w[i];
  }
  return c.scaled(1.0 / total).norm();
}

// A chain of springs: a class object built once, its const method called in a loop.
UNFAD_GRADIENT double chain_energy(const std::vector<Vec3>& p, double k) {
  const Spring s(k, 1.0);
  double e = 0.0;
  for (std::size_t i = 0; i + 1 < p.size(); ++i) e += s.energy(p[i], p[i + 1]);
  return e;
}

// A method changing an array element in place, and a reference to one.
static void relax(std::vector<Vec3>& q, double t) {
  for (std::size_t i = 0; i < q.size(); ++i) q[i].add(q[(i + 1) % q.size()], t);
}

UNFAD_GRADIENT double relaxed_spread(const std::vector<Vec3>& p, double t) {
  std::vector<Vec3> q(p.size());
  for (std::size_t i = 0; i < p.size(); ++i) q[i] = p[i];
  relax(q, t);
  Vec3& first = q[0];
  first += Vec3(t, 0.0, 0.0);
  double s = 0.0;
  for (std::size_t i = 0; i < q.size(); ++i) s += q[i].dot(q[i]);
  return s;
}

/* e2e
[{"function": "triangle_area",
  "points": [[0.5, -0.25, 1.5, 0.75, 2.0], [-1.0, 0.5, 0.25, 1.25, -0.75]]},
 {"function": "weighted_sum",
  "points": [[[1.0, -0.5, 2.0, 0.25, 1.5, -0.75], 0.6], [[-0.3, 0.8, 1.1, 2.0, -1.0, 0.5], -1.3]],
  "value_formula": "(lambda u, v: (lambda c: sum(c[m]*v[m] for m in range(3)) + sqrt(sum(c[m]**2 for m in range(3))))([(1 + w)*u[m] + w*v[m] for m in range(3)]))(a[0:3], [a[3] - 0.5*a[0], a[4] + 0.5*a[1], a[5] - 0.5*a[2]])"},
 {"function": "centroid_norm",
  "points": [[[[1.0, 2.0, 3.0], [-0.5, 0.25, 1.5], [2.5, -1.75, 0.5]], [0.5, 1.5, 1.0]],
             [[[0.75, -1.25, 2.0], [1.5, 0.5, -3.0]], [2.0, 0.5]]],
  "value_formula": "sqrt(sum((sum(w[i]*pts[i][m] for i in range(len(w)))/sum(w))**2 for m in range(3)))"},
 {"function": "chain_energy",
  "points": [[[[0.0, 0.0, 0.0], [1.5, 0.25, -0.5], [2.0, 1.75, 0.5], [1.25, 2.5, 2.0]], 3.0],
             [[[0.5, -1.0, 2.0], [-0.75, 0.5, 1.25], [0.3, 0.2, -0.6]], 0.75]],
  "value_formula": "sum(0.5*k*(sqrt(sum((p[i+1][m] - p[i][m])**2 for m in range(3))) - 1)**2 for i in range(len(p) - 1))"},
 {"function": "relaxed_spread",
  "points": [[[[1.0, 2.0, 3.0], [-0.5, 0.25, 1.5], [2.5, -1.75, 0.5]], 0.3],
             [[[0.75, -1.25, 2.0], [1.5, 0.5, -3.0]], -0.4]]}]
*/
