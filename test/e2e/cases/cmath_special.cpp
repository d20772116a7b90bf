// The rest of <cmath>'s differentiable functions, in the code that uses
// them (each was refused: "'lgamma' has no derivative in unfad"): a
// Student-t log-likelihood whose degrees of freedom are learned (lgamma of
// an active value: its derivative is digamma, unfad::digamma), a Beta
// function by tgamma, the normal tail by erfc, Fisher's z by atanh,
// asinh/acosh transforms, angles wrapped by fmod and remainder, copysign and
// fdim. Checked against finite differences and, for the Beta function at
// integers, by hand: dB/da = B (ψ(a) - ψ(a+b)) with ψ(n) = 1 + ... + 1/(n-1) - γ.
#include <unfad/unfad.h>

#include <cmath>
#include <cstddef>
#include <vector>

UNFAD_GRADIENT double student_t_nll(const std::vector<double>& r, double nu, double sigma) {
  const double pi = 3.14159265358979323846;
  double s = 0;
  for (double ri : r) {
    const double z = ri / sigma;
    s -= std::lgamma(0.5 * (nu + 1)) - std::lgamma(0.5 * nu) - 0.5 * std::log(nu * pi) - std::log(sigma) -
         0.5 * (nu + 1) * std::log1p(z * z / nu);
  }
  return s;
}

UNFAD_GRADIENT double beta_fn(double a, double b) { return std::tgamma(a) * std::tgamma(b) / std::tgamma(a + b); }

UNFAD_GRADIENT double transforms(double x, double y) {
  const double tail = 0.5 * std::erfc(-x / std::sqrt(2.0)); // the normal CDF
  return tail * std::atanh(0.5 * y) + std::asinh(x * y) + std::acosh(1.5 + x * x) + std::erfc(y);
}

UNFAD_GRADIENT double wrapped(double theta, double phi, double a, double b) {
  const double pi = 3.14159265358979323846;
  const double w = std::fmod(theta, 2 * pi);       // [0, 2π) for theta >= 0
  const double d = std::remainder(theta - phi, 2 * pi); // [-π, π]
  return std::sin(w) * w + d * d + std::copysign(a * a, b) + std::fdim(a, 0.5 * b) * b;
}

UNFAD_GRADIENT float lgamma_float(float x) { return std::lgamma(x * x + 0.5f) + std::tgamma(x + 2.0f); }

/* e2e
[{"function": "student_t_nll", "points": [[[0.5, -1.25, 2.0, 0.1], 4.5, 1.2], [[3.0, -0.2], 1.5, 0.8]]},
 {"function": "beta_fn", "points": [[2.5, 1.5], [0.7, 3.2]],
  "expect": [{"at": [2.0, 3.0], "value": 0.08333333333333333,
              "grad": [-0.09027777777777778, -0.04861111111111111], "tol": 1e-10}]},
 {"function": "transforms", "points": [[0.3, 0.8], [-1.2, -0.4]]},
 {"function": "wrapped", "points": [[7.5, 0.4, 0.6, 1.5], [20.0, 5.0, -0.7, -0.3], [1.0, 2.0, 0.9, 0.4]]},
 {"function": "lgamma_float", "points": [[0.7], [1.9]]}]
*/
