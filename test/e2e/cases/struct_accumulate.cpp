// std::accumulate of structs of numbers with a lambda (`Vec2 c =
// std::accumulate(pts.begin(), pts.end(), Vec2{0, 0}, [](const Vec2& a, const
// Vec2& b) { return a + b; })`, a centroid), and with a capture and a
// struct built field by field, and std::transform_reduce of structs. Refused before ("'std::accumulate' of
// non-scalar values is not supported"). Also a struct with member
// operators along a path, sorting a copy taken by value, std::partial_sum.
#include <unfad/unfad.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>
#include <vector>

struct Vec2 {
  double x, y;
  Vec2 operator+(const Vec2& o) const { return {x + o.x, y + o.y}; }
  Vec2 operator*(double k) const { return {k * x, k * y}; }
  double norm() const { return std::sqrt(x * x + y * y); }
};

UNFAD_GRADIENT double centroid_spread(const std::vector<Vec2>& pts) {
  const Vec2 c = std::accumulate(pts.begin(), pts.end(), Vec2{0, 0}, [](const Vec2& a, const Vec2& b) { return a + b; }) *
                 (1.0 / pts.size());
  double s = 0;
  for (const auto& p : pts) s += (p + c * -1.0).norm();
  return s;
}

UNFAD_GRADIENT double weighted_moments(const std::vector<Vec2>& pts, double w) {
  const Vec2 m = std::accumulate(pts.begin(), pts.end(), Vec2{w, 0.0}, [w](Vec2 acc, const Vec2& p) {
    acc.x += w * p.x * p.y;
    acc.y = acc.y * 0.5 + std::sin(p.x);
    return acc;
  });
  return m.x * m.y;
}

UNFAD_GRADIENT double transformed(const std::vector<Vec2>& pts) {
  const Vec2 t = std::transform_reduce(
      pts.begin(), pts.end(), Vec2{0.0, 1.0}, [](const Vec2& a, const Vec2& b) { return a + b; },
      [](const Vec2& p) { return p * std::tanh(p.x); });
  return t.x * t.y + t.norm();
}

UNFAD_GRADIENT double path_len(const std::vector<Vec2>& pts) {
  double L = 0;
  for (size_t i = 1; i < pts.size(); ++i) L += (pts[i] + pts[i - 1] * -1.0).norm();
  return L;
}

UNFAD_GRADIENT double sorted_top(std::vector<double> x, int k) {
  std::sort(x.begin(), x.end(), std::greater<double>());
  return std::accumulate(x.begin(), x.begin() + k, 0.0);
}

UNFAD_GRADIENT double cumsum_sin(const std::vector<double>& x) {
  std::vector<double> c(x.size());
  std::partial_sum(x.begin(), x.end(), c.begin());
  double s = 0;
  for (double v : c) s += std::sin(v);
  return s;
}

/* e2e
[{"function": "centroid_spread", "points": [[[[0.5, -1.25], [2.0, 0.75], [0.1, -0.3]]]]},
 {"function": "weighted_moments", "points": [[[[0.5, -1.25], [2.0, 0.75], [0.1, -0.3]], 0.7], [[], 0.7]]},
 {"function": "transformed", "points": [[[[0.5, -1.25], [2.0, 0.75], [0.1, -0.3]]]]},
 {"function": "path_len", "points": [[[[0.5, -1.25], [2.0, 0.75], [0.1, -0.3]]]]},
 {"function": "sorted_top", "points": [[[0.5, -1.25, 2.0, 0.75, 0.1], 3]]},
 {"function": "cumsum_sin", "points": [[[0.5, -1.25, 2.0, 0.75]]]}]
*/
