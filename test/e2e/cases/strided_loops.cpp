// Counted loops with a constant stride (i += 2, i -= 4, with '<', '<=', '>', '>='):
// folds over the number of steps, the index computed from the loop's ends
// (evaluated once, before the loop, as C++ does), not while loops.
#include <unfad/unfad.h>
#include <cmath>
UNFAD_GRADIENT double strided(const double* x, int n, int k) {
  double s = 0.0;
  for (int i = k; i < n; i += 2) s += x[i] * x[i];
  for (int i = 0; i <= n - 1; i += 3) s += std::sin(x[i]);
  for (int i = n - 1; i >= 0; i -= 2) { s = s * 0.5 + x[i]; k = 7; }
  for (int i = n - 1; i > 1; i -= 4) s += x[i] * x[i - 1];
  return s;
}
/* e2e
{"function": "strided", "points": [[[0.5, -1.25, 2.0, 0.75, 1.5, -0.3, 0.9], 7, 1], [[0.5, -1.25, 2.0, 0.75], 4, 0], [[0.5, 2.0], 2, 5]],
 "value_formula": "(lambda s0, idx: s0*0.5**len(idx) + sum(x[idx[j]]*0.5**(len(idx)-1-j) for j in range(len(idx))))(sum(x[i]**2 for i in range(k, n, 2)) + sum(sin(x[i]) for i in range(0, n, 3)), range(n-1, -1, -2)) + sum(x[i]*x[i-1] for i in range(n-1, 1, -4))"}
*/
