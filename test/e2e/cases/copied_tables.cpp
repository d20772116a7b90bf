// A local copy of a parameter that is a vector of fixed-length rows
// (`std::vector<std::array<double, 3>> q = pts;`, `auto q = pts;`), then
// updated in place: every element scaled by a range-based for, a
// smoothing sweep reading the previous row, pushed further by a helper.
// Refused before ("local arrays of arrays are only supported with
// constant sizes or as ..."): the copy has as many rows as the parameter.
#include <unfad/unfad.h>

#include <array>
#include <cmath>
#include <vector>

UNFAD_GRADIENT double damped(const std::vector<std::array<double, 3>>& pts, double k) {
  std::vector<std::array<double, 3>> q = pts;
  for (auto& p : q)
    for (int d = 0; d < 3; ++d) p[d] *= std::exp(-k * p[d]);
  double s = 0;
  for (const auto& p : q) s += p[0] * p[1] - p[2];
  return s;
}

UNFAD_GRADIENT double smoothed(const std::vector<std::array<double, 2>>& pts, int iters) {
  auto q = pts;
  for (int it = 0; it < iters; ++it)
    for (size_t i = 1; i < q.size(); ++i)
      for (int d = 0; d < 2; ++d) q[i][d] = 0.5 * (q[i][d] + std::sin(q[i - 1][d]));
  double s = 0;
  for (size_t i = 0; i < q.size(); ++i) s += q[i][0] * q[i][1];
  return s + static_cast<double>(q.size());
}

static void push(std::array<double, 2>& p, double h) {
  p[0] += h * p[1];
  p[1] -= h * std::sin(p[0]);
}

UNFAD_GRADIENT double pushed(const std::vector<std::array<double, 2>>& pts, double h) {
  std::vector<std::array<double, 2>> q(pts);
  for (int step = 0; step < 3; ++step)
    for (auto& p : q) push(p, h);
  double e = 0;
  for (const auto& p : q) e += p[0] * p[0] + 0.5 * p[1] * p[1];
  return e;
}

/* e2e
[{"function": "damped", "points": [[[[0.5, -1.25, 2.0], [0.75, 0.1, -0.3]], 0.4], [[], 0.4]]},
 {"function": "smoothed", "points": [[[[0.5, -1.25], [2.0, 0.75], [0.1, -0.3]], 2], [[[0.5, -1.25]], 3]]},
 {"function": "pushed", "points": [[[[0.5, -1.25], [2.0, 0.75], [0.1, -0.3]], 0.1]]}]
*/
