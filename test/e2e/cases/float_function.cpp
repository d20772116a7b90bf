// A float function: float parameters, locals and return; float* adjoints.
#include <unfad/unfad.h>

#include <cmath>

UNFAD_GRADIENT float float_function(float x, float y) {
  const float a = x * y + 2.0f;
  float b = std::sin(a) * x;
  b += y / (1.0f + x * x);
  return b * a - std::sqrt(1.0f + y * y);
}

// Mixed: float parameter, double parameter, double return.
UNFAD_GRADIENT double mixed_precision(float x, double y) {
  const double xd = x;
  return xd * y + std::exp(x) * y;
}

/* e2e
[{"function": "float_function",
  "points": [[0.5, 1.25], [-1.5, 0.75], [2.0, -0.5]]},
 {"function": "mixed_precision",
  "points": [[0.5, 1.25], [-1.5, 0.75]]}]
*/
