// A helper writing one element of a local array, called in a loop that reads
// the array (inlined: the loop tapes what each call overwrites).
#include <unfad/unfad.h>
#include <vector>
#include <cmath>
static void set(std::vector<double>& a, int i, double v) { a[i] = v; }
UNFAD_GRADIENT double f(const double* x, int n) {
  std::vector<double> a(n, 1.0);
  for (int i = 1; i < n; ++i) set(a, i, std::sin(a[i - 1] + x[i]));
  double s = 0;
  for (int i = 0; i < n; ++i) s += a[i] * a[i];
  return s;
}

/* e2e
{"function": "f", "points": [[[0.3, -1.2, 0.8, 1.5, -0.4], 5], [[1.1, 0.25, -0.6], 3]]}
*/
