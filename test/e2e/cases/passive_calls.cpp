// Calls on passive values need no body and no derivative: std::lgamma of an
// integer expression (a mixture model's normalising constant), std::tgamma
// and std::fmod of integers, and a helper of an integer (a switch)
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

// A helper of doubles called on passive values (a Wishart prior's
// normalising constant, as a mixture model computes it): a constant, its
// body never differentiated although it computes lgamma of a double.
static double log_gamma_distrib(double a, double p) {
  double out = 0.25 * p * (p - 1) * std::log(M_PI);
  for (int j = 1; j <= p; j++) out = out + std::lgamma(a + 0.5 * (1 - j));
  return out;
}

UNFAD_GRADIENT double wishart_prior(const double* q, double gamma, int d, int m) {
  const int n = d + m + 1;
  const double C = n * d * (std::log(gamma) - 0.5 * std::log(2.0)) - log_gamma_distrib(0.5 * n, d);
  double s = 0.0;
  for (int j = 0; j < d; ++j) s += q[j] * q[j];
  return 0.5 * gamma * gamma * s - m * q[0] + C;
}

/* e2e
[{"function": "wishart_prior",
 "points": [[[0.5, -1.25, 2.0], 1.5, 3, 2], [[1.5, 0.25], 0.75, 2, 1]],
 "value_formula": "0.5*gamma*gamma*sum(v*v for v in q) - m*q[0] + (d+m+1)*d*(log(gamma) - 0.5*log(2)) - (0.25*d*(d-1)*log(pi) + sum(lgamma(0.5*(d+m+1) + 0.5*(1-j)) for j in range(1, d+1)))",
 "grad_formula": ["[gamma*gamma*q[j] - (m if j == 0 else 0) for j in range(d)]",
                  "gamma*sum(v*v for v in q) + (d+m+1)*d/gamma"]},
{"function": "passive_calls",
 "points": [[[0.5, -1.25, 2.0, 0.75], 4, 3], [[1.5, 0.25, -0.5], 3, 2]],
 "value_formula": "lgamma(0.5*(d+1)) - 0.5*d*log(2*pi) + sum([1.0,0.5,0.25][i%3]*x[i]*x[i] + gamma(i+1)*x[i] + fmod(i,3)*lgamma(0.5*(i+d))*x[i] for i in range(n))",
 "grad_formula": ["[2*[1.0,0.5,0.25][i%3]*x[i] + gamma(i+1) + fmod(i,3)*lgamma(0.5*(i+d)) for i in range(n)]"]}]
*/
