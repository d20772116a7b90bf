// An early return in an else-if chain whose other branches assign a
// variable: the return path must not see the join's rebound variables
// (regression: "UNF: unbound variable"), and the rest of the block is
// lowered once.
#include <unfad/unfad.h>

UNFAD_GRADIENT double nested_return_join(double x0, double x2, double x3, double x4) {
  if (0.5 <= x2) {
    x3 = x3 * x0;
  } else if (x0 < x2) {
    x4 *= 0.5;
  } else {
    return 0.5 * x0 * x4;
  }
  return x3 * x4;
}

/* e2e
{"function": "nested_return_join",
 "points": [[1.5, 0.75, 2.0, -1.0], [-1.0, 0.25, 2.0, 3.0], [1.0, 0.25, 2.0, 3.0]]}
*/
