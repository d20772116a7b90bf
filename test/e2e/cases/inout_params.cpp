// Parameters updated in place whose initial value matters (in/out states):
// on entry d_y is the cotangent of y's final value, on return the
// cotangent of its initial value; f_grad leaves y as f does.
#include <unfad/unfad.h>

#include <array>
#include <cmath>
#include <vector>

// Explicit Euler steps of y' = k sin(y), the state advanced in place.
UNFAD_GRADIENT void euler(double* y, const double* k, double h, int n, int steps) {
  for (int s = 0; s < steps; ++s)
    for (int i = 0; i < n; ++i) y[i] += h * k[i] * std::sin(y[i]);
}

// Normalises v in place and returns its former length.
UNFAD_GRADIENT double normalise(std::vector<double>& v) {
  double s = 0.0;
  for (std::size_t i = 0; i < v.size(); ++i) s += v[i] * v[i];
  const double r = std::sqrt(s);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] /= r;
  return r;
}

// Heron's iteration for square roots, in place, a fixed number of sweeps
// in a while loop (a std::vector: its length is known, so the loop's
// counting pass can copy it).
UNFAD_GRADIENT void heron(std::vector<double>& y, const std::vector<double>& a) {
  int sweep = 0;
  while (sweep < 4) {
    for (std::size_t i = 0; i < y.size(); ++i) y[i] = 0.5 * (y[i] + a[i] / y[i]);
    ++sweep;
  }
}

// A point rotated in place; returns the product of its new coordinates.
UNFAD_GRADIENT double rotate(std::array<double, 2>& p, double theta) {
  const double c = std::cos(theta), s = std::sin(theta);
  const double x = p[0];
  p[0] = c * x - s * p[1];
  p[1] = s * x + c * p[1];
  return p[0] * p[1];
}

/* e2e
[{"function": "euler", "inouts": {"y": 3},
  "points": [[[0.5, -1.0, 2.0], [1.5, 0.5, -0.75], 0.1, 3, 4], [[1.0, 0.2, -0.3], [0.3, -1.2, 2.0], 0.05, 3, 1]]},
 {"function": "normalise", "inouts": {"v": 3},
  "points": [[[3.0, 4.0, 12.0]], [[0.5, -1.5, 2.0]]],
  "value_formula": "sqrt(sum(t*t for t in v))"},
 {"function": "heron", "inouts": {"y": 3},
  "points": [[[1.0, 2.0, 0.5], [2.0, 9.0, 0.3]]]},
 {"function": "rotate", "inouts": {"p": 2},
  "points": [[[1.0, 0.5], 0.3], [[-0.5, 2.0], 1.2]],
  "grad_formula": ["(lambda c, s: [w_p[0]*c + w_p[1]*s + (c*(s*p[0] + c*p[1]) + s*(c*p[0] - s*p[1])), -w_p[0]*s + w_p[1]*c + (-s*(s*p[0] + c*p[1]) + c*(c*p[0] - s*p[1]))])(cos(theta), sin(theta))",
                   "(lambda c, s: (lambda a, b: a*a - b*b - w_p[0]*b + w_p[1]*a)(c*p[0] - s*p[1], s*p[0] + c*p[1]))(cos(theta), sin(theta))"]}]
*/
