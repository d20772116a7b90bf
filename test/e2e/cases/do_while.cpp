// do-while loops: a counted one and one whose trip count depends on the data.
#include <unfad/unfad.h>

#include <cmath>

UNFAD_GRADIENT double alternating(const double* x, int n) {
  double s = 0.0;
  double sign = 1.0;
  int i = 0;
  do {
    s += sign * x[i] * x[i];
    sign = -sign;
    ++i;
  } while (i < n);
  return s;
}

// Halve (scaled) until below 1, then a smooth function of what is left.
UNFAD_GRADIENT double shrink(double x, double rate) {
  double y = x;
  do {
    y = y * rate;
  } while (y > 1.0);
  return y * y + std::sin(y);
}

/* e2e
[{"function": "alternating",
  "points": [[[0.5, -1.25, 2.0, 0.75], 4], [[1.5], 1]],
  "grad_formula": ["[(2 if i % 2 == 0 else -2)*x[i] for i in range(n)]"]},
 {"function": "shrink",
  "points": [[5.3, 0.5], [0.7, 0.6], [3.0, 0.75]]}]
*/
