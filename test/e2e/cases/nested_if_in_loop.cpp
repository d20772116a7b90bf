// Nested ifs inside a loop: a piecewise per-element penalty (Huber-like,
// with a different slope for negative residuals).
#include <unfad/unfad.h>

#include <cmath>

UNFAD_GRADIENT double piecewise_penalty(const double* r, int n, double delta) {
  double s = 0.0;
  for (int i = 0; i < n; ++i) {
    const double v = r[i];
    if (v > 0.0) {
      if (v > delta) {
        s += delta * (v - 0.5 * delta);
      } else {
        s += 0.5 * v * v;
      }
    } else {
      if (v < -delta) {
        s += 2.0 * delta * (-v - 0.5 * delta);
      } else {
        s += v * v;
      }
    }
  }
  return s;
}

/* e2e
{"function": "piecewise_penalty",
 "points": [[[0.3, 1.7, -0.4, -2.5, 0.9, -0.05], 6, 1.0], [[2.0, -0.7, 0.2], 3, 0.5]]}
*/
