// fabs, fmin, fmax (std:: and unqualified), away from their kinks.
#include <unfad/unfad.h>

#include <cmath>

UNFAD_GRADIENT double abs_min_max(double x, double y, double z) {
  const double a = std::fabs(x - y) * z;
  const double b = fmin(x * z, y + 1.0);
  const double c = std::fmax(fabs(z), x * y);
  return a + b * c + std::fmin(std::fmax(x, -0.5), 0.5);
}

/* e2e
{"function": "abs_min_max",
 "points": [[1.5, 0.25, -2.0], [-1.25, 0.75, 3.0], [0.125, 2.5, 0.75], [3.0, -2.0, 1.5]]}
*/
