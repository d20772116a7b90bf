// Structs as numeric code declares them: default member initializers that
// are not zero (`double k = 2.0;`) in the elements of `std::vector<T> v(n)`,
// which start as T{} makes them, and std::array members assigned braces,
// `p.v = {a, b};` on a local object and `ps[i].v = {x, y};` on an element.
// The cotangent buffers of such arrays start at zero, not at T{} (which
// would be `{1.0, 2.0}` below: a wrong gradient, on the heap and on the
// stack, with a fill value given or not). Checked against finite
// differences.
#include <unfad/unfad.h>

#include <array>
#include <cmath>
#include <vector>

struct Spring {
  double k = 2.0;
  double rest = 1.0;
  std::array<double, 2> end{};
};

// A chain of springs: elements default-constructed (k and rest from their
// initializers), their end points assigned braces.
UNFAD_GRADIENT double chain_energy(const std::vector<double>& xy) {
  const std::size_t n = xy.size() / 2;
  std::vector<Spring> springs(n);
  for (std::size_t i = 0; i < n; ++i) springs[i].end = {xy[2 * i], xy[2 * i + 1]};
  springs[0].k = 3.0;
  double e = 0;
  for (std::size_t i = 1; i < n; ++i) {
    const double dx = springs[i].end[0] - springs[i - 1].end[0], dy = springs[i].end[1] - springs[i - 1].end[1];
    const double stretch = std::hypot(dx, dy) - springs[i].rest;
    e += 0.5 * springs[i].k * stretch * stretch;
  }
  return e + springs[0].k * springs[0].end[0];
}

template <int N> struct VecN {
  std::array<double, N> v{};
  double dot(const VecN& o) const {
    double s = 0;
    for (int i = 0; i < N; ++i) s += v[i] * o.v[i];
    return s;
  }
  VecN operator-(const VecN& o) const {
    VecN r;
    for (int i = 0; i < N; ++i) r.v[i] = v[i] - o.v[i];
    return r;
  }
};

// Points of a class template, their coordinates assigned braces.
UNFAD_GRADIENT double spread(const std::vector<double>& x) {
  std::vector<VecN<2>> pts(x.size() / 2);
  for (std::size_t i = 0; i < pts.size(); ++i) pts[i].v = {x[2 * i], x[2 * i + 1]};
  double s = 0;
  for (std::size_t i = 0; i < pts.size(); ++i)
    for (std::size_t j = i + 1; j < pts.size(); ++j) {
      const VecN<2> d = pts[i] - pts[j];
      s += 1.0 / (1.0 + d.dot(d));
    }
  return s;
}

struct Particle {
  std::array<double, 3> pos{};
  double mass = 1.5;
};

// A local object's member array assigned braces twice, the second time
// short (the rest zero), and a default mass.
UNFAD_GRADIENT double local_object(double a, double b) {
  Particle p;
  p.pos = {a, b, a * b};
  const double first = p.mass * (p.pos[0] * p.pos[1] + p.pos[2]);
  p.pos = {std::sin(b)};
  return first + p.pos[0] + p.pos[1] + p.pos[2];
}
struct Point {
  double x = 1.0;
  double y = 2.0;
};

// A fill value given; the buffer's cotangent must start at zero all the same.
UNFAD_GRADIENT double filled(const std::vector<double>& a) {
  std::vector<Point> v(a.size(), Point{0.0, 0.0});
  for (std::size_t i = 0; i < a.size(); ++i) v[i].x = a[i];
  double s = 0;
  for (std::size_t i = 0; i < a.size(); ++i) s += v[i].x * v[i].x + v[i].y;
  return s;
}

// Default-constructed elements updated in place.
UNFAD_GRADIENT double defaulted(const std::vector<double>& a) {
  std::vector<Point> v(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) v[i].x += a[i];
  double s = 0;
  for (std::size_t i = 0; i < a.size(); ++i) s += v[i].x * v[i].x * v[i].y;
  return s;
}

// On the stack: a std::array and a C array of such structs.
UNFAD_GRADIENT double on_stack(double a, double b) {
  std::array<Point, 3> ps;
  ps[0].x = a;
  ps[1].x = b * a;
  ps[2].y += b;
  Point qs[2];
  qs[1].y *= b;
  double s = 0;
  for (const Point& p : ps) s += p.x * p.y;
  return s + qs[0].x * qs[1].y;
}
/* e2e
[{"function": "chain_energy", "points": [[[0.0, 0.1, 1.2, 0.3, 2.1, -0.4, 2.9, 0.2]]]},
 {"function": "spread", "points": [[[0.3, -0.7, 1.1, 0.4, 2.0, 0.5]]]},
 {"function": "local_object", "points": [[0.3, -0.7], [1.2, 0.4]]},
 {"function": "filled", "points": [[[0.3, -0.7, 1.1]]]},
 {"function": "defaulted", "points": [[[0.3, -0.7, 1.1]]]},
 {"function": "on_stack", "points": [[0.3, -0.7]]}]
*/
