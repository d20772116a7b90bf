// Structured bindings of arrays, as C++ code names coordinates: of a
// std::array (`const auto& [x, y, z] = q;`, by value `auto [p, q] = v;`
// where the copy must not see later writes, `auto& [a, b] = v;` writing
// through), over a std::vector of std::array in a range-based for, std::get<I>
// of a std::array read and assigned, and of C arrays (by value from a
// parameter, by reference to a local), and rows of a std::vector of
// std::array named by reference bindings and written through them, or
// copied by a range-based for.
#include <unfad/unfad.h>

#include <array>
#include <cmath>
#include <vector>

UNFAD_GRADIENT double cross_z(const std::array<double, 3> &q, const std::array<double, 3> &r) {
  const auto &[x, y, z] = q;
  auto [u, v, w] = r;
  return x * v - y * u + z * w * w;
}

UNFAD_GRADIENT double polyline(const std::vector<std::array<double, 3>> &pts) {
  double s = 0.0;
  for (const auto &[x, y, z] : pts) s += std::sqrt(x * x + y * y + z * z) - z;
  return s;
}

UNFAD_GRADIENT double copies(double a, double b) {
  std::array<double, 2> v{a * b, a + b};
  auto [p, q] = v; // copies: the writes below are not seen
  v[0] = 100.0;
  auto &[s, t] = v; // names v's elements
  s *= q;
  t = t * p;
  std::get<1>(v) += std::get<0>(v) * a;
  return p * q + v[0] + v[1];
}

UNFAD_GRADIENT double c_arrays(const double (&c)[2], double k) {
  auto [u, w] = c;
  double m[3] = {k * u, w, u + w};
  auto &[r, s, t] = m;
  r += s * t;
  return m[0] * u - w * t;
}

// Rows of a local copy named by reference bindings, written through them.
UNFAD_GRADIENT double scale_pts(const std::vector<std::array<double, 2>> &in, double k) {
  std::vector<std::array<double, 2>> pts = in;
  for (auto &[x, y] : pts) {
    x *= k;
    y += x;
  }
  double s = 0;
  for (const auto &[x, y] : pts) s += (x + 1) * y;
  for (std::size_t i = 0; i < pts.size(); ++i) {
    auto &[x, y] = pts[i];
    const double keep = x;
    x = y;
    y = keep;
  }
  return s + pts[0][0];
}

// Rows copied by a range-based for (`for (auto p : pts)`, `for (auto [x, y]
// : pts)`): each iteration's own copy, written without touching pts.
UNFAD_GRADIENT double copied_rows(const std::vector<std::array<double, 2>> &pts, double k) {
  double s = 0;
  for (auto p : pts) {
    p[0] *= k;
    s += p[0] * p[1];
  }
  for (auto [x, y] : pts) {
    x += y;
    s += x * k;
  }
  return s + pts[0][0];
}

/* e2e
[{"function": "cross_z", "points": [[[1.5, -2, 0.5], [0.25, 3, -1.25]], [[-1, 0.5, 2], [2, -0.5, 1]]],
  "value_formula": "q[0]*r[1] - q[1]*r[0] + q[2]*r[2]*r[2]",
  "grad_formula": ["[r[1], -r[0], r[2]*r[2]]", "[-q[1], q[0], 2*q[2]*r[2]]"]},
 {"function": "polyline", "points": [[[[1, 2, 2], [0.5, -1, 3], [-2, 0.25, -1]]]],
  "value_formula": "sum(sqrt(p[0]**2 + p[1]**2 + p[2]**2) - p[2] for p in pts)",
  "grad_formula": ["[[p[0]/sqrt(p[0]**2+p[1]**2+p[2]**2), p[1]/sqrt(p[0]**2+p[1]**2+p[2]**2), p[2]/sqrt(p[0]**2+p[1]**2+p[2]**2) - 1] for p in pts]"]},
 {"function": "copies", "points": [[1.5, -0.5], [0.75, 2]],
  "value_formula": "(a*b)*(a+b) + 100*(a+b) + (a+b)*(a*b) + 100*(a+b)*a",
  "grad_formula": ["b*(a+b) + a*b + 100 + b*(a+b) + a*b + 100*(2*a+b)", "a*(a+b) + a*b + 100 + a*(a+b) + a*b + 100*a"]},
 {"function": "scale_pts", "points": [[[[1.5, -0.5], [0.25, 2], [-1, 0.75]], 1.3], [[[0.5, 1]], -2]]},
 {"function": "copied_rows", "points": [[[[1.5, -0.5], [0.25, 2], [-1, 0.75]], 1.3]],
  "value_formula": "sum(k*p[0]*p[1] + (p[0] + p[1])*k for p in pts) + pts[0][0]",
  "grad_formula": ["[[k*p[1] + k + (1 if i == 0 else 0), k*p[0] + k] for i, p in enumerate(pts)]", "sum(p[0]*p[1] + p[0] + p[1] for p in pts)"]},
 {"function": "c_arrays", "points": [[[1.5, -0.5], 2], [[0.25, 3], -1]],
  "value_formula": "(k*c[0] + c[1]*(c[0]+c[1]))*c[0] - c[1]*(c[0]+c[1])",
  "grad_formula": ["[2*k*c[0] + 2*c[0]*c[1] + c[1]*c[1] - c[1], c[0]*c[0] + 2*c[0]*c[1] - c[0] - 2*c[1]]", "c[0]*c[0]"]}]
*/
