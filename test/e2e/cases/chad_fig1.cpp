// CHAD (Vákár & Smeding), Fig. 1: y = x1*x4 + 2*x2; z = y*x3; w = z + x4;
// v = sin(w). x4 is used twice: its two contributions must sum.
#include <unfad/unfad.h>

#include <cmath>

UNFAD_GRADIENT double chad_fig1(double x1, double x2, double x3, double x4) {
  const double y = x1 * x4 + 2 * x2;
  const double z = y * x3;
  const double w = z + x4;
  const double v = std::sin(w);
  return v;
}

/* e2e
{"function": "chad_fig1",
 "points": [[0.1, 0.2, 0.3, 0.4], [-1.5, 0.25, 2, -0.5]],
 "value_formula": "sin((x1*x4 + 2*x2)*x3 + x4)",
 "grad_formula": ["cos((x1*x4 + 2*x2)*x3 + x4)*x4*x3",
                  "cos((x1*x4 + 2*x2)*x3 + x4)*2*x3",
                  "cos((x1*x4 + 2*x2)*x3 + x4)*(x1*x4 + 2*x2)",
                  "cos((x1*x4 + 2*x2)*x3 + x4)*(x1*x3 + 1)"],
 "expect": [{"at": [1, 2, 3, 4], "grad": [-11.5513, -5.7756, -7.7008, -3.8504]}]}
*/
