// A helper taking arrays, called twice with different arrays and once with the
// same array for both arguments.
#include <unfad/unfad.h>

#include <cmath>

static double dot(const double* a, const double* b, int n) {
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += a[i] * b[i];
  return s;
}

UNFAD_GRADIENT double projection_error(const double* x, const double* d, int n) {
  const double xd = dot(x, d, n);
  const double dd = dot(d, d, n);
  const double xx = dot(x, x, n);
  return xx - xd * xd / dd;
}

/* e2e
{"function": "projection_error",
 "points": [[[1.0, 2.0, -0.5], [0.3, -1.2, 0.8], 3], [[0.5, 1.5], [2.0, -1.0], 2]],
 "grad_formula": [
   "[2*x[i] - 2*sum(a*b for a, b in zip(x, d))/sum(b*b for b in d)*d[i] for i in range(n)]",
   "[-2*sum(a*b for a, b in zip(x, d))/sum(b*b for b in d)*x[i] + 2*sum(a*b for a, b in zip(x, d))**2/sum(b*b for b in d)**2*d[i] for i in range(n)]"]}
*/
