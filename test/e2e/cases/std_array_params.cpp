// std::array parameters by const reference: a cross product and a triple
// product of 3-vectors, and a loop over size().
#include <unfad/unfad.h>

#include <array>
#include <cmath>
#include <cstddef>

UNFAD_GRADIENT double cross_norm(const std::array<double, 3>& a, const std::array<double, 3>& b) {
  const double cx = a[1] * b[2] - a[2] * b[1];
  const double cy = a[2] * b[0] - a[0] * b[2];
  const double cz = a[0] * b[1] - a[1] * b[0];
  return std::sqrt(cx * cx + cy * cy + cz * cz);
}

UNFAD_GRADIENT double poly_eval(const std::array<double, 4>& c, double x) {
  double p = 0.0;
  double xi = 1.0;
  for (std::size_t i = 0; i < c.size(); ++i) {
    p += c[i] * xi;
    xi *= x;
  }
  return p;
}

/* e2e
[{"function": "cross_norm",
  "points": [[[1.0, 2.0, -0.5], [0.3, -1.2, 0.8]], [[0.5, 0.0, 1.5], [-1.0, 2.0, 0.25]]]},
 {"function": "poly_eval",
  "points": [[[1.0, -0.5, 0.25, 2.0], 0.7], [[0.0, 1.5, -1.0, 0.5], -1.2]],
  "grad_formula": ["[x**i for i in range(4)]", "c[1] + 2*c[2]*x + 3*c[3]*x*x"]}]
*/
