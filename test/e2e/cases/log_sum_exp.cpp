// A numerically stable log-sum-exp: a max-finding loop (with an if, and with
// std::fmax), then a sum. The gradient is the softmax of x.
#include <unfad/unfad.h>

#include <cmath>

UNFAD_GRADIENT double log_sum_exp(const double* x, int n) {
  double m = x[0];
  for (int i = 1; i < n; ++i) {
    if (x[i] > m) m = x[i];
  }
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += std::exp(x[i] - m);
  return m + std::log(s);
}

UNFAD_GRADIENT double log_sum_exp_fmax(const double* x, int n) {
  double m = x[0];
  for (int i = 1; i < n; ++i) m = std::fmax(m, x[i]);
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += std::exp(x[i] - m);
  return m + std::log(s);
}

/* e2e
[{"function": "log_sum_exp",
  "points": [[[0.5, 2.0, -1.0, 1.25], 4],
             [[3.0, -2.0, 0.5], 3],
             [[-0.3], 1],
             [[1.0, 1.5, 2.5, 0.2, -0.7, 2.1], 6]],
  "value_formula": "log(sum(exp(v) for v in x))",
  "grad_formula": ["[exp(v)/sum(exp(u) for u in x) for v in x]"]},
 {"function": "log_sum_exp_fmax",
  "points": [[[0.5, 2.0, -1.0, 1.25], 4],
             [[3.0, -2.0, 0.5], 3],
             [[1.0, 1.5, 2.5, 0.2, -0.7, 2.1], 6]],
  "grad_formula": ["[exp(v)/sum(exp(u) for u in x) for v in x]"]}]
*/
