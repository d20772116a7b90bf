// std::fma, std::abs on doubles, std::pow with integer exponents (also at
// negative bases: d/dx (-2)^3 = 3 * 4 = 12, not NaN from log(x)), std::clamp
// on values, and unfad::no_grad (a value without derivatives).
#include <unfad/unfad.h>

#include <algorithm>
#include <cmath>

UNFAD_GRADIENT double fused(double x, double y, double z) { return std::fma(x, y, z * z) + std::fma(y, y, x); }

UNFAD_GRADIENT double magnitude(double x, double y) { return std::abs(x) * y + std::abs(x * y - 1.0); }

UNFAD_GRADIENT double powers(double x, int n) { return std::pow(x, 2) + std::pow(x, n) + std::pow(x, 3) * 0.5; }

UNFAD_GRADIENT double clamped(double x, double lo, double hi) {
  return std::clamp(x * x, lo, hi) + std::clamp(2.0 * x, -1.0, 1.0);
}

// the step is a constant of the differentiation: only x's direct use counts
UNFAD_GRADIENT double frozen(double x, double y) {
  const double step = unfad::no_grad(x * y);
  return step * x + y;
}

/* e2e
[{"function": "fused", "points": [[0.5, -1.5, 2.0], [1.25, 0.75, -0.5]],
  "grad_formula": ["y + 1", "x + 2*y", "2*z"]},
 {"function": "magnitude", "points": [[0.5, -1.5], [-1.25, 0.75], [-2.0, 2.0]]},
 {"function": "powers", "points": [[-2.0, 3], [1.5, 4], [-0.5, 5], [-1.5, 0]],
  "grad_formula": ["2*x + (n*x**(n-1) if n != 0 else 0) + 1.5*x*x"],
  "expect": [{"at": [-2.0, 3], "value": -8.0, "grad": [14.0]}]},
 {"function": "clamped", "points": [[0.45, 0.1, 2.0], [1.8, 0.1, 2.0], [0.2, 0.1, 2.0], [-0.3, 0.5, 2.0]],
  "grad_formula": ["(2*x if lo <= x*x <= hi else 0) + (2 if abs(2*x) < 1 else 0)",
                   "1 if x*x < lo else 0", "1 if x*x > hi else 0"]},
 {"function": "frozen", "points": [[0.5, 1.5], [-1.0, 2.0]],
  "grad_formula": ["x*y", "1"], "fd": false,
  "expect": [{"at": [0.5, 1.5], "value": 1.875, "grad": [0.75, 1.0]}]}]
*/
