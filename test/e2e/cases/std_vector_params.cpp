// std::vector parameters by const reference, with size() and operator[].
#include <unfad/unfad.h>

#include <cmath>
#include <cstddef>
#include <vector>

// A weighted, regularised squared error between a model a*t + b*sin(t) and data y.
UNFAD_GRADIENT double fit_error(const std::vector<double>& t, const std::vector<double>& y, double a, double b,
                                double lambda) {
  double e = 0.0;
  for (std::size_t i = 0; i < t.size(); ++i) {
    const double r = a * t[i] + b * std::sin(t[i]) - y[i];
    e += r * r;
  }
  return e / static_cast<double>(t.size()) + lambda * (a * a + b * b);
}

// Cosine similarity of two vectors of the same size (int loop, size() cast).
UNFAD_GRADIENT double cosine(const std::vector<double>& u, const std::vector<double>& v) {
  const int n = static_cast<int>(u.size());
  double uv = 0.0;
  double uu = 0.0;
  double vv = 0.0;
  for (int i = 0; i < n; ++i) {
    uv += u[i] * v[i];
    uu += u[i] * u[i];
    vv += v[i] * v[i];
  }
  return uv / std::sqrt(uu * vv);
}

/* e2e
[{"function": "fit_error",
  "points": [[[0.0, 0.5, 1.0, 1.5, 2.0], [0.1, 0.9, 1.6, 2.4, 2.9], 1.2, 0.3, 0.01],
             [[-1.0, 0.25, 3.0], [-0.5, 0.4, 2.0], 0.5, -0.7, 0.1]]},
 {"function": "cosine",
  "points": [[[1.0, 2.0, -0.5], [0.3, -1.2, 0.8]], [[0.5, 0.5, 1.5, -2.0], [1.0, -0.25, 0.75, 0.5]]]}]
*/
