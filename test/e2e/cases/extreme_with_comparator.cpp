// std::min_element / std::max_element with a comparator, as written: the
// nearest point of a vector of structs (a lambda comparing distances), the
// entry of largest magnitude (`*std::max_element(..., by_magnitude)`, a
// function), a two-key comparator (lexicographic on two fields), and the
// position as an index (`it - v.begin()`); the two-key one is checked by
// hand at a tie of its first key (finite differences see the jump there). Refused before ("this iterator
// expression is not supported"). The derivative flows through the element
// chosen (a discrete choice), as through `min`.
#include <unfad/unfad.h>

#include <algorithm>
#include <cmath>
#include <vector>

struct P {
  double x, y;
};

UNFAD_GRADIENT double nearest(const std::vector<P>& pts, double qx, double qy) {
  auto d2 = [&](const P& p) { return (p.x - qx) * (p.x - qx) + (p.y - qy) * (p.y - qy); };
  auto it = std::min_element(pts.begin(), pts.end(), [&](const P& a, const P& b) { return d2(a) < d2(b); });
  return std::sqrt(d2(*it)) + 0.1 * (it - pts.begin());
}

static bool by_magnitude(double a, double b) { return std::fabs(a) < std::fabs(b); }

UNFAD_GRADIENT double peak_ratio(const std::vector<double>& v) {
  const double peak = *std::max_element(v.begin(), v.end(), by_magnitude);
  double s = 0;
  for (double x : v) s += x / peak;
  return s;
}

UNFAD_GRADIENT double lowest_then_leftmost(const std::vector<P>& pts, double w) {
  const auto best = std::min_element(pts.begin(), pts.end(), [](const P& a, const P& b) {
    return a.y < b.y || (a.y == b.y && a.x < b.x);
  });
  return best->x * w + best->y * best->y;
}

/* e2e
[{"function": "nearest", "points": [[[[0, 0], [1, 0.5], [2, 2]], 0.9, 0.7], [[[0, 0], [1, 0.5], [2, 2]], 1.8, 1.9]]},
 {"function": "peak_ratio", "points": [[[0.3, -2.5, 2.0, 0.5]], [[0.3, 1.5, -1.0]]]},
 {"function": "lowest_then_leftmost", "fd": false,
  "points": [[[[0.5, 1.0], [1.5, -0.5], [2.0, 0.25], [-1.0, -0.25]], 0.7]],
  "expect": [{"at": [[[0.5, 1.0], [1.5, -0.5], [2.0, 0.25], [-1.0, -0.25]], 0.7], "value": 1.3,
              "grad": [[[0, 0], [0.7, -1.0], [0, 0], [0, 0]], 1.5]},
             {"at": [[[0.5, 1.0], [1.5, -0.5], [2.0, 0.25], [-1.0, -0.5]], 0.7], "value": -0.45,
              "grad": [[[0, 0], [0, 0], [0, 0], [0.7, -1.0]], -1.0]}]}]
*/
