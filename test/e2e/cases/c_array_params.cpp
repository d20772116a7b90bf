// C array parameters: `const double x[]` with a length, and a reference to a
// fixed-size array `const double (&v)[3]`.
#include <unfad/unfad.h>

#include <cmath>

UNFAD_GRADIENT double mean_log(const double x[], int n) {
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += std::log(x[i]);
  return s / n;
}

UNFAD_GRADIENT double rotate_dot(const double (&v)[3], const double (&w)[3], double angle) {
  const double c = std::cos(angle);
  const double s = std::sin(angle);
  const double rx = c * v[0] - s * v[1];
  const double ry = s * v[0] + c * v[1];
  return rx * w[0] + ry * w[1] + v[2] * w[2];
}

/* e2e
[{"function": "mean_log",
  "points": [[[0.5, 2.0, 1.5], 3], [[3.0, 0.25], 2]],
  "grad_formula": ["[1/(n*v) for v in x]"]},
 {"function": "rotate_dot",
  "points": [[[1.0, 2.0, -0.5], [0.3, -1.2, 0.8], 0.4], [[0.5, -1.5, 2.0], [1.0, 0.5, -0.25], -1.1]]}]
*/
