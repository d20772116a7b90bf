// Least squares |A x - b|^2 with a row-major m x n matrix A[i*n + j]: a nested
// loop whose inner loop carries the residual.
#include <unfad/unfad.h>

UNFAD_GRADIENT double least_squares(const double* A, const double* x, const double* b, int m, int n) {
  double cost = 0.0;
  for (int i = 0; i < m; ++i) {
    double r = 0.0;
    for (int j = 0; j < n; ++j) {
      r += A[i * n + j] * x[j];
    }
    r -= b[i];
    cost += r * r;
  }
  return cost;
}

/* e2e
{"function": "least_squares",
 "points": [[[1.0, 2.0, -0.5, 0.25, 3.0, 1.5], [0.3, -1.2], [1.0, 0.5, -2.0], 3, 2],
            [[0.5, -1.0, 2.0, 1.5, 0.25, -0.75], [1.1, 0.4, -0.6], [0.2, -0.3], 2, 3],
            [[2.0, -1.0, 0.5, 1.0], [0.75, 1.25], [0.5, 1.5], 2, 2]],
 "grad_formula": [
   "[2*(sum(A[(k//n)*n + j]*x[j] for j in range(n)) - b[k//n])*x[k % n] for k in range(m*n)]",
   "[sum(2*(sum(A[i*n + l]*x[l] for l in range(n)) - b[i])*A[i*n + j] for i in range(m)) for j in range(n)]",
   "[-2*(sum(A[i*n + j]*x[j] for j in range(n)) - b[i]) for i in range(m)]"]}
*/
