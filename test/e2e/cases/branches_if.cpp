// if / else if / else on active and passive conditions, early return.
// The derivative is that of the branch taken (points stay away from the
// branch boundaries).
#include <unfad/unfad.h>

#include <cmath>

// A piecewise function with three pieces chosen by an active comparison.
UNFAD_GRADIENT double piecewise(double x, double y) {
  double r;
  if (x < -1.0) {
    r = x * y;
  } else if (x < 1.0) {
    r = x * x + std::sin(y);
  } else {
    r = y / x;
  }
  return r;
}

// Early returns, one guarded by a passive int.
UNFAD_GRADIENT double early(double x, double y, int mode) {
  if (mode == 0)
    return x * y;
  const double s = x + y;
  if (s > 10.0)
    return s * s;
  if (mode == 2) {
    return std::exp(s) - x;
  }
  return s * x * y;
}

// Nested ifs that assign different variables on each path.
UNFAD_GRADIENT double nested(double a, double b) {
  double u = a;
  double v = b;
  if (a > 0.0) {
    if (b > 0.0) {
      u = a * b;
    } else {
      v = a - b * b;
    }
  } else {
    u = -a;
    v = b * 3.0;
  }
  return u * v + u;
}

/* e2e
[{"function": "piecewise",
  "points": [[-2.5, 1.5], [-0.5, 2.0], [0.25, -0.75], [3.0, 1.25]],
  "grad_formula": ["y if x < -1 else (2*x if x < 1 else -y/(x*x))",
                   "x if x < -1 else (cos(y) if x < 1 else 1/x)"]},
 {"function": "early",
  "points": [[1.5, 2.0, 0], [1.5, 2.0, 1], [1.5, 2.0, 2], [6.0, 5.0, 1], [6.0, 5.0, 2], [-0.5, 0.25, 1]]},
 {"function": "nested",
  "points": [[1.5, 2.0], [1.5, -2.0], [-1.5, 2.0], [-0.5, -0.25]]}]
*/
