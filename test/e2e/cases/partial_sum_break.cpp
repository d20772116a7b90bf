// A partial sum that stops (break) once it exceeds a threshold: the trip count
// depends on the data. Points are chosen away from the switch.
#include <unfad/unfad.h>

#include <cmath>

UNFAD_GRADIENT double partial_sum_break(const double* x, int n, double cap) {
  double s = 0.0;
  for (int i = 0; i < n; ++i) {
    s += x[i] * x[i] * cap;
    if (s > 2.0) break;
  }
  return s * std::exp(-0.1 * s);
}

// The exit test first, then the update.
UNFAD_GRADIENT double weighted_until_negative(const double* x, const double* w, int n) {
  double s = 0.0;
  for (int i = 0; i < n; ++i) {
    if (x[i] < 0.0) break;
    s += w[i] * std::sin(x[i]);
  }
  return s;
}

/* e2e
[{"function": "partial_sum_break",
  "points": [[[0.5, 0.7, 1.2, 0.3, 2.0], 5, 1.0],
             [[0.2, 0.3, 0.1], 3, 1.5],
             [[1.7, 0.4, 0.9], 3, 0.8]]},
 {"function": "weighted_until_negative",
  "points": [[[0.5, 1.25, -0.75, 2.0], [1.0, -0.5, 2.0, 3.0], 4],
             [[0.3, 0.6, 0.9], [0.5, 1.5, -1.0], 3],
             [[-0.4, 1.0], [2.0, 1.0], 2]],
  "grad_formula": [
    "[w[i]*cos(x[i]) if all(v >= 0 for v in x[:i+1]) else 0 for i in range(n)]",
    "[sin(x[i]) if all(v >= 0 for v in x[:i+1]) else 0 for i in range(n)]"]}]
*/
