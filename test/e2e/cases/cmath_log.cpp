// Logarithms of <cmath>, within their domains.
#include <unfad/unfad.h>

#include <cmath>

UNFAD_GRADIENT double logs(double x, double y) {
  return std::log(x) * y + log2(x * y) + std::log10(x + y) + std::log1p(y * y);
}

/* e2e
{"function": "logs",
 "points": [[0.5, 1.25], [2.5, 0.75], [10.0, 3.5], [0.125, 0.25]],
 "grad_formula": [
   "y/x + 1/(x*log(2)) + 1/((x + y)*log(10))",
   "log(x) + 1/(y*log(2)) + 1/((x + y)*log(10)) + 2*y/(1 + y*y)"]}
*/
