// Trigonometric functions of <cmath>, as std:: and unqualified, within their domains.
#include <unfad/unfad.h>

#include <cmath>

UNFAD_GRADIENT double trig(double x, double y) {
  return std::sin(x) * cos(y) + std::tan(0.5 * x) + std::asin(0.3 * y) + acos(0.25 * x) +
         std::atan(x * y) + std::atan2(y, x) + atan2(x + 3.0, y - 4.0);
}

/* e2e
{"function": "trig",
 "points": [[0.5, 1.25], [-1.5, 0.75], [2.0, -2.5], [-0.25, -1.0]],
 "grad_formula": [
   "cos(x)*cos(y) + 0.5/cos(0.5*x)**2 - 0.25/sqrt(1 - (0.25*x)**2) + y/(1 + (x*y)**2) - y/(x*x + y*y) + (y - 4)/((x + 3)**2 + (y - 4)**2)",
   "-sin(x)*sin(y) + 0.3/sqrt(1 - (0.3*y)**2) + x/(1 + (x*y)**2) + x/(x*x + y*y) - (x + 3)/((x + 3)**2 + (y - 4)**2)"]}
*/
