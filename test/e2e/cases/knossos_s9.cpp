// Knossos notes §9: y = x*x; z = x + y; return y*z. The derivative is
// 3x^2 + 4x^3: 7 at x = 1 and 44 at x = 2 (the notes' printed output is wrong).
#include <unfad/unfad.h>

UNFAD_GRADIENT double knossos_s9(double x) {
  const double y = x * x;
  const double z = x + y;
  return y * z;
}

/* e2e
{"function": "knossos_s9",
 "points": [[0.5], [-1.75], [10]],
 "value_formula": "x**3 + x**4",
 "grad_formula": ["3*x**2 + 4*x**3"],
 "expect": [{"at": [1], "value": 2, "grad": [7]},
            {"at": [2], "value": 24, "grad": [44]}]}
*/
