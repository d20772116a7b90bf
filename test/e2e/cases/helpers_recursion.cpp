// Recursion whose depth is decided by a passive int.
#include <unfad/unfad.h>

static double powi(double x, int n) { return n == 0 ? 1.0 : x * powi(x, n - 1); }

static double horner(double x, double c, int n) {
  if (n == 0)
    return c;
  return c + x * horner(x, c * 0.5, n - 1);
}

UNFAD_GRADIENT double recursion(double x, double c, int n) {
  return powi(x, n) + horner(x, c, n) * c;
}

/* e2e
{"function": "recursion",
 "points": [[1.5, 0.5, 0], [1.5, 0.5, 1], [0.75, -2.0, 4], [-1.25, 1.5, 7]],
 "grad_formula": [
   "n*x**(n-1) + c*sum(k*x**(k-1)*c*0.5**k for k in range(1, n+1))",
   "sum(x**k*0.5**k for k in range(0, n+1))*2*c"]}
*/
