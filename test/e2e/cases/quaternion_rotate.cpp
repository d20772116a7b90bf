// Krawiec et al., "Provably correct, asymptotically efficient, higher-order
// reverse-mode AD", Fig. 12: the x component of v rotated by the quaternion
// q = (q0, q1, q2, q3) = (u, w), vector part first, scalar part last, not
// normalised: v' = q v q* = (w^2 - u.u) v + 2 (u.v) u + 2 w (u x v).
// At q = (1.1, 2.2, 3.3, 4.4), v = (5.5, 6.6, 7.7): value 71.874, gradient
// (91.96, 58.08, -77.44, 38.72, 4.84, -24.2, 26.62).
#include <unfad/unfad.h>

struct Vec3 {
  double x, y, z;
};

static double dot(Vec3 a, Vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

static Vec3 cross(Vec3 a, Vec3 b) {
  return Vec3{a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

static Vec3 scale(double s, Vec3 a) { return Vec3{s * a.x, s * a.y, s * a.z}; }

static Vec3 add(Vec3 a, Vec3 b) { return Vec3{a.x + b.x, a.y + b.y, a.z + b.z}; }

static Vec3 rotate(Vec3 u, double w, Vec3 v) {
  const Vec3 a = scale(w * w - dot(u, u), v);
  const Vec3 b = scale(2.0 * dot(u, v), u);
  const Vec3 c = scale(2.0 * w, cross(u, v));
  return add(add(a, b), c);
}

UNFAD_GRADIENT double rotx(double q0, double q1, double q2, double q3, double v0, double v1,
                           double v2) {
  const Vec3 u{q0, q1, q2};
  const Vec3 v{v0, v1, v2};
  return rotate(u, q3, v).x;
}

/* e2e
{"function": "rotx",
 "points": [[0.3, -0.2, 0.5, 0.8, 1, 2, 3], [-1.5, 0.25, 2, -0.75, 0.5, -4, 1.25]],
 "value_formula": "(q3*q3 - (q0*q0+q1*q1+q2*q2))*v0 + 2*(q0*v0+q1*v1+q2*v2)*q0 + 2*q3*(q1*v2 - q2*v1)",
 "expect": [{"at": [1.1, 2.2, 3.3, 4.4, 5.5, 6.6, 7.7], "value": 71.874,
             "grad": [91.96, 58.08, -77.44, 38.72, 4.84, -24.2, 26.62]}]}
*/
