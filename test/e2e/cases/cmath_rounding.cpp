// floor ceil round trunc have derivative zero (away from their jumps).
#include <unfad/unfad.h>

#include <cmath>

UNFAD_GRADIENT double rounding(double x, double y) {
  return std::floor(x) * y + ceil(x * y) + std::round(y) * x + trunc(x - y) + x * y;
}

/* e2e
{"function": "rounding",
 "points": [[0.25, 1.375], [2.75, 0.625], [-1.75, -2.125], [3.125, 0.375]],
 "grad_formula": ["round(y) + y", "floor(x) + x"]}
*/
