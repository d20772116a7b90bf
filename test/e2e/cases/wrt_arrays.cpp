// UNFAD_GRADIENT_WRT with array parameters: only the named arrays get adjoints.
#include <unfad/unfad.h>

#include <cmath>

UNFAD_GRADIENT_WRT(theta) double model_loss(const double* theta, const double* data, int n, double scale) {
  double s = 0.0;
  for (int i = 0; i < n; ++i) {
    const double r = theta[0] + theta[1] * data[i] - scale * std::cos(data[i]);
    s += r * r;
  }
  return s;
}

/* e2e
{"function": "model_loss",
 "points": [[[0.5, -1.5], [0.1, 0.7, 1.3, 2.0], 4, 0.8], [[1.0, 0.25], [-0.5, 0.5], 2, 1.2]],
 "grad_formula": [
   "[sum(2*(theta[0] + theta[1]*d - scale*cos(d)) for d in data[:n]), sum(2*(theta[0] + theta[1]*d - scale*cos(d))*d for d in data[:n])]"]}
*/
