// Forward mode of <cmath>'s special functions: lgamma and tgamma (tangents
// through unfad::digamma), erfc, the inverse hyperbolic functions, fmod,
// remainder, copysign and fdim.
#include <unfad/unfad.h>

#include <cmath>

UNFAD_JVP double special_functions(const double* x, double nu) {
  return std::lgamma(nu) * x[0] + std::tgamma(0.5 * nu) + std::erfc(x[1]) * std::asinh(x[2]) +
         std::acosh(1.0 + x[0] * x[0]) + std::atanh(0.5 * std::tanh(x[1])) + std::fmod(x[2] * nu, 1.5) +
         std::remainder(x[0], 0.75) * std::copysign(x[1], x[2]) + std::fdim(x[0], x[1]);
}

UNFAD_GRADIENT double special_functions_rev(const double* x, double nu) { return special_functions(x, nu); }

/* jvp
{"function": "special_functions", "gradient": "special_functions_rev",
 "params": [["x", "in", 3], ["nu", "scalar"]],
 "points": [[[0.6, -0.3, 1.1], 2.7], [[-0.4, 0.9, -0.8], 0.6]]}
*/
