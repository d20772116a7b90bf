// `continue` in a loop: entries below a threshold are skipped.
#include <unfad/unfad.h>

#include <cmath>

UNFAD_GRADIENT double sum_above(const double* x, int n, double thresh, double scale) {
  double s = 0.0;
  for (int i = 0; i < n; ++i) {
    if (x[i] < thresh) continue;
    s += std::exp(scale * x[i]);
  }
  return s;
}

/* e2e
{"function": "sum_above",
 "points": [[[0.5, -1.0, 1.5, 0.1, -0.3], 5, 0.0, 0.8], [[2.0, 1.0, 0.6], 3, 0.8, -0.5]],
 "grad_formula": [
   "[scale*exp(scale*v) if v >= thresh else 0 for v in x]",
   "0",
   "sum(v*exp(scale*v) for v in x if v >= thresh)"]}
*/
