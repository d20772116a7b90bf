// The extended Rosenbrock function over a pointer and a length: a loop that
// reads two neighbouring elements per iteration.
#include <unfad/unfad.h>

UNFAD_GRADIENT double rosenbrock(const double* x, int n) {
  double f = 0.0;
  for (int i = 0; i < n - 1; ++i) {
    const double t = x[i + 1] - x[i] * x[i];
    const double u = 1.0 - x[i];
    f += 100.0 * t * t + u * u;
  }
  return f;
}

/* e2e
{"function": "rosenbrock",
 "points": [[[-1.2, 1.0], 2],
            [[0.5, -0.3, 1.1], 3],
            [[1.1, 0.9, -0.5, 0.3, 1.7], 5],
            [[0.75], 1]],
 "grad_formula": [
   "[(-400*x[i]*(x[i+1] - x[i]**2) - 2*(1 - x[i]) if i + 1 < n else 0) + (200*(x[i] - x[i-1]**2) if i > 0 else 0) for i in range(n)]"]}
*/
