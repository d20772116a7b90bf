// std::swap of structs of plain values: two locals (their values exchanged),
// in a loop (a pair rotated each step), and elements of a local array of
// structs swapped by a key (one bubble pass). Refused before ("non-const
// reference parameter '__a' is not supported yet (inside 'std::swap')").
#include <unfad/unfad.h>

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

struct P {
  double a, b;
};

UNFAD_GRADIENT double exchanged(double u, double v) {
  P p{u, v}, q{v * v, std::sin(u)};
  std::swap(p, q);
  return p.a * q.b + p.b * q.a;
}

UNFAD_GRADIENT double rotated(double u, double v, int n) {
  P p{u, v}, q{v, 0.5 * u};
  double s = 0;
  for (int k = 0; k < n; ++k) {
    p.a += 0.1 * q.b;
    std::swap(p, q);
    s += p.a * std::cos(q.b);
  }
  return s;
}

UNFAD_GRADIENT double bubbled(const std::vector<double>& x) {
  std::vector<P> ps(x.size());
  for (size_t i = 0; i < x.size(); ++i) ps[i] = P{x[i], x[i] * (i + 1.0)};
  for (size_t i = 0; i + 1 < ps.size(); ++i)
    if (ps[i].a > ps[i + 1].a) std::swap(ps[i], ps[i + 1]);
  double s = 0;
  for (size_t i = 0; i < ps.size(); ++i) s += ps[i].b * (i + 1.0);
  return s;
}

/* e2e
[{"function": "exchanged", "points": [[0.5, -1.25], [2.0, 0.75]]},
 {"function": "rotated", "points": [[0.5, -1.25, 3], [0.5, -1.25, 0]]},
 {"function": "bubbled", "points": [[[0.5, -1.25, 2.0, 0.75]], [[2.5, 1.5, 0.25]]]}]
*/
