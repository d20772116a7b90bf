// UNF paper (Huot & Shaikhha), Example 1.1: w1 = x1*x2; w2 = w1*x1, with a
// third, unused input (hence -Wno-unused-parameter below). Gradient (w1 + x2*x1, x1*x1, 0) = (2*x1*x2, x1^2, 0).
#include <unfad/unfad.h>

UNFAD_GRADIENT double example_1_1(double x1, double x2, double x3) {
  const double w1 = x1 * x2;
  const double w2 = w1 * x1;
  return w2;
}

/* e2e
{"function": "example_1_1",
 "flags": ["-Wno-unused-parameter"],
 "points": [[1, 2, 3], [0.5, -1.25, 2], [-3.5, 0.75, -1e3]],
 "value_formula": "x1*x1*x2",
 "grad_formula": ["x1*x2 + x2*x1", "x1*x1", "0"],
 "expect": [{"at": [3, 2, 7], "value": 18, "grad": [12, 9, 0]}]}
*/
