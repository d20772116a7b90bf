// Two marked functions in one file sharing a helper: each gets its own
// f_grad block; the helper's pullback is generated once and reused.
#include <unfad/unfad.h>

#include <cmath>

static double logistic(double a) { return 1.0 / (1.0 + std::exp(-a)); }

UNFAD_GRADIENT double first(double w, double b) { return logistic(w * 2.0 + b); }

double unmarked_between(double a) { return a + 1.0; }

UNFAD_GRADIENT double second(double w, double b) {
  return std::log(logistic(w) + logistic(b)) * unmarked_between(w);
}

/* e2e
[{"function": "first",
  "points": [[0.5, 1.25], [-1.5, 0.75]],
  "grad_formula": ["2*exp(-(2*w+b))/(1+exp(-(2*w+b)))**2", "exp(-(2*w+b))/(1+exp(-(2*w+b)))**2"]},
 {"function": "second",
  "points": [[0.5, 1.25], [-1.5, 0.75]]}]
*/
