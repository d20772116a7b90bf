// Horner's rule: a decreasing loop with a loop-carried scalar. Coefficients
// c[0] + c[1] x + ... + c[n-1] x^(n-1).
#include <unfad/unfad.h>

UNFAD_GRADIENT double horner(const double* c, int n, double x) {
  double p = 0.0;
  for (int i = n - 1; i >= 0; --i) {
    p = p * x + c[i];
  }
  return p;
}

/* e2e
{"function": "horner",
 "points": [[[1.0, -2.0, 0.5, 3.0], 4, 0.7],
            [[0.25, 1.5, -1.25], 3, -1.3],
            [[2.0], 1, 0.4],
            [[-0.5, 0.75, 1.0, -2.0, 0.125, 1.5], 6, 1.1]],
 "value_formula": "sum(c[i]*x**i for i in range(n))",
 "grad_formula": ["[x**i for i in range(n)]",
                  "sum(i*c[i]*x**(i-1) for i in range(1, n))"]}
*/
