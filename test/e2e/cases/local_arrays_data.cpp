// Local arrays (a C array and a std::vector) and std::vector::data() passed to
// a helper that takes a pointer.
#include <unfad/unfad.h>

#include <cmath>
#include <vector>

static double weighted_norm2(const double* v, const double* w, int n) {
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += w[i] * v[i] * v[i];
  return s;
}

UNFAD_GRADIENT double triangle_area_and_more(const std::vector<double>& p, const std::vector<double>& w) {
  // edge vectors of the triangle p[0..2], p[3..5], p[6..8] in a local C array
  double e[6];
  for (int k = 0; k < 3; ++k) {
    e[k] = p[3 + k] - p[k];
    e[3 + k] = p[6 + k] - p[k];
  }
  const double cx = e[1] * e[5] - e[2] * e[4];
  const double cy = e[2] * e[3] - e[0] * e[5];
  const double cz = e[0] * e[4] - e[1] * e[3];
  const double area = 0.5 * std::sqrt(cx * cx + cy * cy + cz * cz);
  std::vector<double> c(3);
  c[0] = cx;
  c[1] = cy;
  c[2] = cz;
  return area + weighted_norm2(c.data(), w.data(), 3);
}

/* e2e
{"function": "triangle_area_and_more",
 "points": [[[0.0, 0.0, 0.0, 1.0, 0.2, -0.1, 0.3, 1.1, 0.4], [0.5, 1.0, 0.25]],
            [[0.5, -0.2, 1.0, 1.5, 0.3, 0.2, -0.4, 0.9, 1.3], [1.0, 0.1, 2.0]]]}
*/
