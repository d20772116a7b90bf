// sqrt cbrt pow hypot erf from <cmath>.
#include <unfad/unfad.h>

#include <cmath>

UNFAD_GRADIENT double pow_misc(double x, double y) {
  return std::sqrt(x * x + 1.0) * y + cbrt(x * y) + std::pow(x, 3.0) + std::pow(x, y) +
         pow(2.5, y) + std::hypot(x, y) + std::erf(0.5 * x * y);
}

/* e2e
{"function": "pow_misc",
 "points": [[0.5, 1.25], [2.5, 0.75], [1.75, -2.0], [3.0, 0.5]],
 "grad_formula": [
   "x*y/sqrt(x*x + 1) + y/(3*((x*y)**2)**(1/3)) + 3*x*x + y*x**(y - 1) + x/hypot(x, y) + exp(-(0.5*x*y)**2)*2/sqrt(pi)*0.5*y",
   "sqrt(x*x + 1) + x/(3*((x*y)**2)**(1/3)) + log(x)*x**y + log(2.5)*2.5**y + y/hypot(x, y) + exp(-(0.5*x*y)**2)*2/sqrt(pi)*0.5*x"]}
*/
