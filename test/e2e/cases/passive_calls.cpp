// Calls on passive values need no body and no derivative: std::lgamma of an
// integer expression (a mixture model's normalising constant), std::tgamma
// and std::fmod of integers, and a helper unfad cannot read (a switch)
// called on an integer. The gradient calls them as written.
#include <unfad/unfad.h>

#include <cmath>

static double weight(int k) {
  switch (k % 3) {
  case 0: return 1.0;
  case 1: return 0.5;
  default: return 0.25;
  }
}

UNFAD_GRADIENT double passive_calls(const double* x, int n, int d) {
  const double half = 0.5 * (d + 1);
  double s = std::lgamma(half) - 0.5 * d * std::log(2 * M_PI);
  for (int i = 0; i < n; ++i) {
    s += weight(i) * x[i] * x[i] + std::tgamma(i + 1) * x[i];
    s += std::fmod(i, 3) * lgamma(0.5 * (i + d)) * x[i];
  }
  return s;
}

/* e2e
{"function": "passive_calls",
 "points": [[[0.5, -1.25, 2.0, 0.75], 4, 3], [[1.5, 0.25, -0.5], 3, 2]],
 "value_formula": "lgamma(0.5*(d+1)) - 0.5*d*log(2*pi) + sum([1.0,0.5,0.25][i%3]*x[i]*x[i] + gamma(i+1)*x[i] + fmod(i,3)*lgamma(0.5*(i+d))*x[i] for i in range(n))",
 "grad_formula": ["[2*[1.0,0.5,0.25][i%3]*x[i] + gamma(i+1) + fmod(i,3)*lgamma(0.5*(i+d)) for i in range(n)]"]}
*/
