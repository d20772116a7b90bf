// Classes with array members (lib/frontend/member_arrays.cpp): a Vec3 whose
// coordinates are a private `double r[3]` with `operator[]` returning
// `double&` and `const double&`, loops over the coordinates in its methods
// and operators (unrolled), a fixed-size `Vec<N>` template, a struct with a
// `std::array<double, 3>` member and a `double m[3][3]` matrix member;
// objects as locals, loop state, helper parameters (by value, const
// reference, reference) and return values; a std::array member filled
// whole (`d_.fill(v)`).
#include <unfad/unfad.h>

#include <array>
#include <cmath>
#include <cstddef>
#include <vector>

class Vec3 {
public:
  Vec3() = default;
  Vec3(double x, double y, double z) : r{x, y, z} {}
  double& operator[](int i) { return r[i]; }
  const double& operator[](int i) const { return r[i]; }
  double dot(const Vec3& o) const {
    double s = 0.0;
    for (int i = 0; i < 3; ++i) s += r[i] * o.r[i];
    return s;
  }
  double norm() const { return std::sqrt(dot(*this)); }
  Vec3 operator+(const Vec3& o) const {
    Vec3 out;
    for (int i = 0; i < 3; ++i) out.r[i] = r[i] + o.r[i];
    return out;
  }
  Vec3& operator+=(const Vec3& o) {
    for (int i = 0; i < 3; ++i) r[i] += o.r[i];
    return *this;
  }

private:
  double r[3] = {0.0, 0.0, 0.0};
};

Vec3 operator*(double s, const Vec3& v) {
  Vec3 out;
  for (int i = 0; i < 3; ++i) out[i] = s * v[i];
  return out;
}

static Vec3 cross(const Vec3& a, const Vec3& b) {
  return Vec3(a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]);
}

static void push(Vec3& p, Vec3 d, double h) { p += h * d; }

// Constructors, operators, accessors read and written, a helper by
// reference and by value, a value returned.
UNFAD_GRADIENT double triangle(double ax, double ay, double bz, double h) {
  const Vec3 a(ax, ay, 0.5);
  Vec3 b(1.0, ay * ax, bz);
  b[0] = b[1] + h;
  b[2] *= a[0];
  Vec3 c = a + b;
  push(c, a, h);
  const Vec3 n = cross(a, c);
  return 0.5 * n.norm() + c[1];
}

// Loop state: a Vec3 stepped through a loop whose trip count is a parameter.
UNFAD_GRADIENT double trajectory(const std::vector<double>& v0, double dt, int steps) {
  Vec3 x(0.0, 0.0, 0.0);
  Vec3 v(v0[0], v0[1], v0[2]);
  for (int s = 0; s < steps; ++s) {
    x += dt * v;
    v[2] -= dt * (1.0 + 0.1 * x[2] * x[2]);
  }
  return x.dot(x);
}

// A fixed-size vector template with a public array member.
template <int N>
struct Vec {
  double v[N] = {};
  double& operator[](int i) { return v[i]; }
  double operator[](int i) const { return v[i]; }
  double sum() const {
    double s = 0.0;
    for (int i = 0; i < N; ++i) s += v[i];
    return s;
  }
};

template <int N>
Vec<N> hadamard(const Vec<N>& a, const Vec<N>& b) {
  Vec<N> c;
  for (int i = 0; i < N; ++i) c[i] = a[i] * b[i];
  return c;
}

UNFAD_GRADIENT double weighted_energy(const double* x, const double* w) {
  Vec<4> a, b;
  for (int i = 0; i < 4; ++i) {
    a[i] = x[i];
    b.v[i] = std::exp(w[i]);
  }
  const Vec<4> c = hadamard(a, b);
  return c.sum() + a[3] * c[0];
}

// std::array and 2-D members, aggregates, a computed index read.
struct Body {
  std::array<double, 3> pos;
  double m[3][3];
  double mass;
};

static double kinetic(const Body& b, int k) {
  double e = 0.0;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) e += b.pos[i] * b.m[i][j] * b.pos[j];
  return 0.5 * b.mass * e + b.pos[k] * b.pos[k];
}

UNFAD_GRADIENT double body_energy(double px, double py, double pz, double mass, int k) {
  Body b{{px, py, pz}, {{2.0, 0.5, 0.0}, {0.5, 1.0, 0.25}, {0.0, 0.25, 3.0}}, mass};
  b.m[1][1] = mass * px;
  b.pos[2] += 1.0;
  return kinetic(b, k);
}

// A std::array member filled as a whole (`d_.fill(v)`, in a constructor
// and in a method; refused before: "member array 'd_' is only supported
// indexed ..."), then read by a range-for.
class Bins {
 public:
  explicit Bins(double v) { d_.fill(v); }
  void reset(double v) { d_.fill(v * v); }
  void add(int k, double v) { d_[k % 4] += v; }
  double energy() const {
    double s = 0.0;
    for (double x : d_) s += x * x;
    return s;
  }

 private:
  std::array<double, 4> d_;
};

UNFAD_GRADIENT
double binned(double a, double b) {
  Bins h(a);
  h.add(1, b);
  double e = h.energy();
  h.reset(b);
  h.add(2, a * b);
  return e + h.energy();
}

/* e2e
[{"function": "triangle",
  "points": [[0.5, -0.25, 1.5, 0.75], [-1.0, 0.5, 0.25, 1.25]]},
 {"function": "trajectory",
  "points": [[[1.0, 0.5, 2.0], 0.1, 5], [[-0.3, 0.8, 1.1], 0.05, 3]]},
 {"function": "weighted_energy",
  "points": [[[1.0, 0.5, -2.0, 0.25], [0.1, -0.2, 0.3, 0.4]]],
  "value_formula": "sum(x[i]*exp(w[i]) for i in range(4)) + x[3]*x[0]*exp(w[0])"},
 {"function": "binned", "points": [[0.5, -1.25], [1.5, 0.75]],
  "value_formula": "3*a**2 + (a + b)**2 + 3*b**4 + (b*b + a*b)**2"},
 {"function": "body_energy",
  "points": [[0.5, -0.25, 1.5, 2.0, 1], [-1.0, 0.5, 0.25, 0.75, 2]]}]
*/
