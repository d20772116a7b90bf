// Helpers returning std::vector and std::array by value (issue 12): lowered
// into their callers (lib/frontend/returned_arrays.cpp). The shapes people
// write: a scaled copy, a cross product returned as `{...}`, calls nested in
// an expression, a call in a loop body, a std::array state reassigned in a
// loop (`p = rotate(p, t)`), a helper returning its parameter, a vector built
// by a constructor, a range-for over a returned vector, a helper that also
// updates a reference parameter, and a vector of structs.
#include <unfad/unfad.h>

#include <array>
#include <cmath>
#include <cstddef>
#include <vector>

struct P2 {
  double x, y;
};

static std::vector<double> scaled(const std::vector<double>& v, double s) {
  std::vector<double> r(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) r[i] = s * v[i];
  return r;
}

static double dot(const std::vector<double>& a, const std::vector<double>& b) {
  double s = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
  return s;
}

static std::array<double, 3> cross(const std::array<double, 3>& a, const std::array<double, 3>& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}

static std::array<double, 3> add(const std::array<double, 3>& a, const std::array<double, 3>& b) {
  std::array<double, 3> r{};
  for (int i = 0; i < 3; ++i) r[i] = a[i] + b[i];
  return r;
}

static double norm2(const std::array<double, 3>& a) { return a[0] * a[0] + a[1] * a[1] + a[2] * a[2]; }

static std::array<double, 3> rotate_z(const std::array<double, 3>& p, double t) {
  const double c = std::cos(t), s = std::sin(t);
  return {c * p[0] - s * p[1], s * p[0] + c * p[1], p[2]};
}

static std::vector<double> same(const std::vector<double>& v) { return v; }

static std::vector<double> filled(int n, double value) { return std::vector<double>(n, value); }

static std::vector<double> squares_and_count(const std::vector<double>& v, int& calls) {
  ++calls;
  std::vector<double> r(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) r[i] = v[i] * v[i];
  return r;
}

static std::vector<P2> to_points(const std::vector<double>& t, double radius) {
  std::vector<P2> pts(t.size());
  for (std::size_t i = 0; i < t.size(); ++i) pts[i] = P2{radius * std::cos(t[i]), radius * std::sin(t[i])};
  return pts;
}

// f = s^2 * |x|^2
UNFAD_GRADIENT double scaled_sq(const std::vector<double>& x, double s) {
  auto y = scaled(x, s);
  double t = 0.0;
  for (std::size_t i = 0; i < y.size(); ++i) t += y[i] * y[i];
  return t;
}

UNFAD_GRADIENT double cross_energy(const std::array<double, 3>& a, const std::array<double, 3>& b) {
  const auto c = cross(a, b);
  return norm2(c) + norm2(cross(a, add(a, b))) + cross(b, a)[2];
}

// A call in a loop body: sum_k w_k * s_k * |x|^2 = |x|^2 * sum_k w_k^2.
UNFAD_GRADIENT double loop_calls(const std::vector<double>& x, const std::vector<double>& w) {
  double s = 0.0;
  for (std::size_t k = 0; k < w.size(); ++k) {
    const std::vector<double> y = scaled(x, w[k]);
    s += w[k] * dot(y, x);
  }
  return s;
}

// A std::array state advanced through a helper returning a new state.
UNFAD_GRADIENT double rotations(const std::array<double, 3>& p0, const std::vector<double>& t) {
  std::array<double, 3> p = p0;
  double path = 0.0;
  for (std::size_t k = 0; k < t.size(); ++k) {
    p = rotate_z(p, t[k]);
    path += p[0] * p[2];
  }
  return path + p[1];
}

UNFAD_GRADIENT double copies_and_fills(const std::vector<double>& x, double v) {
  const auto c = same(x);
  auto f = filled(static_cast<int>(x.size()), v);
  double s = 0.0;
  for (double e : scaled(c, v)) s += e * e; // range-for over a returned vector
  for (std::size_t i = 0; i < x.size(); ++i) s += f[i] * c[i] * x[i];
  return s + dot(same(f), scaled(x, 2.0));
}

UNFAD_GRADIENT double with_reference(const std::vector<double>& x) {
  int calls = 0;
  auto q = squares_and_count(x, calls);
  auto q2 = squares_and_count(q, calls);
  return dot(q, q2) * calls;
}

UNFAD_GRADIENT double point_ring(const std::vector<double>& t, double radius) {
  const auto pts = to_points(t, radius);
  double e = 0.0;
  for (std::size_t i = 0; i + 1 < pts.size(); ++i) {
    const double dx = pts[i + 1].x - pts[i].x, dy = pts[i + 1].y - pts[i].y;
    e += std::sqrt(dx * dx + dy * dy);
  }
  return e;
}

/* e2e
[{"function": "scaled_sq",
  "points": [[[1.0, -2.0, 0.5], 1.5], [[0.25, 3.0], -0.75]],
  "grad_formula": ["[2 * s * s * v for v in x]", "2 * s * sum(v * v for v in x)"]},
 {"function": "cross_energy",
  "points": [[[1.0, 2.0, -0.5], [0.3, -1.2, 2.0]], [[-0.7, 0.1, 1.1], [2.0, 0.5, -0.3]]]},
 {"function": "loop_calls",
  "points": [[[1.0, -2.0, 0.5], [0.5, 1.5, -1.0]], [[0.3, 0.7], [2.0]]],
  "grad_formula": ["[2 * v * sum(u * u for u in w) for v in x]", "[2 * u * sum(v * v for v in x) for u in w]"]},
 {"function": "rotations",
  "points": [[[1.0, 0.5, 2.0], [0.3, -0.2, 0.9]], [[-0.4, 1.2, 0.7], [1.1]]]},
 {"function": "copies_and_fills",
  "points": [[[1.0, -2.0, 0.5], 1.5], [[0.25, 3.0], -0.75]]},
 {"function": "with_reference",
  "points": [[[1.0, -0.5, 0.8]], [[0.3, 1.2]]],
  "grad_formula": ["[12 * v ** 5 for v in x]"]},
 {"function": "point_ring",
  "points": [[[0.1, 0.9, 2.0, 2.5], 1.5], [[-1.0, 0.3], 0.7]]}]
*/
