// Hyperbolic and exponential functions of <cmath>.
#include <unfad/unfad.h>

#include <cmath>

UNFAD_GRADIENT double hyp_exp(double x, double y) {
  return std::sinh(x) * cosh(0.5 * y) + std::tanh(x * y) + std::exp(0.5 * x) + exp2(y) +
         std::expm1(x - y);
}

/* e2e
{"function": "hyp_exp",
 "points": [[0.5, 1.25], [-1.5, 0.75], [2.0, -2.5], [1e-3, 2e-3]],
 "grad_formula": [
   "cosh(x)*cosh(0.5*y) + y*(1 - tanh(x*y)**2) + 0.5*exp(0.5*x) + exp(x - y)",
   "0.5*sinh(x)*sinh(0.5*y) + x*(1 - tanh(x*y)**2) + log(2)*2**y - exp(x - y)"]}
*/
