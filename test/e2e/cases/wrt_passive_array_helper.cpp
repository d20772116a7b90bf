// UNFAD_GRADIENT_WRT(x) on a function that passes another `const double*`
// parameter, not in the WRT list, to a helper: the helper's pullback is
// called with that array, which has no adjoint.
#include <unfad/unfad.h>

#include <cmath>

static double weighted(const double* x, const double* w, int n) {
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += w[i] * std::sin(x[i]);
  return s;
}

UNFAD_GRADIENT_WRT(x) double objective(const double* x, const double* w, int n) {
  return weighted(x, w, n) * x[0];
}

/* e2e
[{"function": "objective",
  "points": [[[0.5, 2.0, 1.5], [1.0, -0.5, 2.0], 3], [[3.0, 0.25], [0.75, 1.25], 2]]}]
*/
