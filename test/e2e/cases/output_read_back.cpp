// An output that f reads back after writing it (never the caller's values):
// y = exp(x) elementwise, and the return value is log(sum(y)).
#include <unfad/unfad.h>

#include <cmath>

UNFAD_GRADIENT double exp_and_lse(const double* x, int n, double* y) {
  for (int i = 0; i < n; ++i) y[i] = std::exp(x[i]);
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += y[i];
  return std::log(s);
}

/* e2e
{"function": "exp_and_lse", "outputs": {"y": 3},
 "points": [[[0.5, -1.0, 1.25], 3], [[2.0, 0.1, -0.3], 3]],
 "grad_formula": ["[exp(x[i])/sum(exp(v) for v in x) + w_y[i]*exp(x[i]) for i in range(n)]"]}
*/
