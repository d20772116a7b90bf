// Lambdas: a capture by reference read after the variable changed, early
// returns in a lambda's loop, std::for_each on structs written field by
// field, a pointer local captured by value, std::transform whose lambda
// updates a captured accumulator.
#include <unfad/unfad.h>
#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

struct Vec3 { double x, y, z; };

UNFAD_GRADIENT double ref_after_change(double x) {
  double a = x;
  auto f = [&] { return a * 2.0; };
  a = 3.0 * x;
  return f() + a;
}

UNFAD_GRADIENT double early_return(const double* x, int n, double t) {
  auto first_above = [&](double thr) {
    for (int i = 0; i < n; ++i)
      if (x[i] > thr) return x[i] * t;
    return t;
  };
  double s = 0.0;
  for (int k = 0; k < 3; ++k) s += first_above(0.5 * k);
  if (s > 1.0) return first_above(-1.0) * s;
  return s;
}

UNFAD_GRADIENT void scale_points(std::vector<Vec3>& p, double s) {
  std::for_each(p.begin(), p.end(), [&](Vec3& q) { q.x *= s; q.z += s * q.y; });
}

UNFAD_GRADIENT double pointer_capture(const double* x, int n) {
  const double* p = x + 1;
  auto at = [p](int i) { return p[i] * p[i]; };
  double s = 0.0;
  for (int i = 0; i + 1 < n; ++i) s += at(i);
  return s;
}

UNFAD_GRADIENT double transform_counter(const std::vector<double>& x, double c) {
  std::vector<double> y(x.size());
  double acc = 0.0;
  std::transform(x.begin(), x.end(), y.begin(), [&](double v) { acc += c * v; return acc * v; });
  return std::accumulate(y.begin(), y.end(), 0.0) + acc;
}

/* e2e
[{"function": "ref_after_change", "points": [[1.5]], "value_formula": "9*x"},
 {"function": "early_return", "points": [[[0.25, -1.25, 2.0, 0.75], 4, 1.5], [[0.1, 0.2], 2, 0.3]]},
 {"function": "scale_points", "points": [[[[0.5, -1.25, 2.0], [1.5, 0.25, -0.5]], 0.7]], "inouts": {"p": 2}},
 {"function": "pointer_capture", "points": [[[0.5, -1.25, 2.0, 0.75], 4]]},
 {"function": "transform_counter", "points": [[[0.5, -1.25, 2.0], 0.7]]}]
*/
