// Operators the user defines on std::array values, as vector code is
// written: `Vec3 operator-(const Vec3&, const Vec3&)`, `k * v`, chains of
// them in one expression, an operator's result passed to a helper, and a
// member operator of a class returning a std::array (`R * v`). Refused
// before ("this initializer of 'Vec3' is not supported yet"): only named
// helpers returning arrays were calls.
#include <unfad/unfad.h>

#include <array>
#include <cmath>
#include <vector>

using Vec3 = std::array<double, 3>;
static Vec3 operator-(const Vec3& a, const Vec3& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
static Vec3 operator*(double k, const Vec3& a) { return {k * a[0], k * a[1], k * a[2]}; }
static double dot(const Vec3& a, const Vec3& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

struct Rot {
  double m[9];
  Vec3 operator*(const Vec3& v) const {
    return {m[0] * v[0] + m[1] * v[1] + m[2] * v[2], m[3] * v[0] + m[4] * v[1] + m[5] * v[2],
            m[6] * v[0] + m[7] * v[1] + m[8] * v[2]};
  }
};
static Vec3 operator+(const Vec3& a, const Vec3& b) { return {a[0] + b[0], a[1] + b[1], a[2] + b[2]}; }

UNFAD_GRADIENT double chained(const double* x) {
  const Vec3 a{x[0], x[1], x[2]}, b{x[3], x[4], x[5]}, c{x[6], 1.0, 2.0};
  const Vec3 d = a - b + 0.5 * c;
  return dot(d, d) + dot(a + b, c - a);
}

UNFAD_GRADIENT double rotated(const double* x) {
  const Rot r{{std::cos(x[0]), -std::sin(x[0]), 0, std::sin(x[0]), std::cos(x[0]), 0, 0, 0, 1}};
  const Vec3 v{x[1], x[2], x[3]};
  const Vec3 w = r * v;
  return w[0] * w[1] + dot(r * w, v);
}

UNFAD_GRADIENT double springs(const std::vector<Vec3>& p, double k) {
  double e = 0;
  for (size_t i = 0; i + 1 < p.size(); ++i) {
    const Vec3 d = p[i + 1] - p[i];
    const double l = std::sqrt(dot(d, d));
    const Vec3 f = k * d;
    e += 0.5 * k * (l - 1) * (l - 1) + 0.01 * dot(f, p[i]);
  }
  return e;
}

/* e2e
[{"function": "springs", "points": [[[[0.0, 0.1, 0.2], [1.1, 0.3, -0.2], [1.5, 1.2, 0.4]], 2.0]]},
 {"function": "chained", "points": [[[0.5, -1.25, 2.0, 0.75, 0.1, -0.3, 0.9]]]},
 {"function": "rotated", "points": [[[0.5, -1.25, 2.0, 0.75]]]}]
*/
