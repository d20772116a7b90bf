// std::min / std::max / std::fmin evaluate each argument once, also when an
// argument has a side effect (a post-increment, a helper advancing a
// cursor): evaluating one twice would skip elements, and the value and the
// gradient would both differ from f's.
#include <unfad/unfad.h>

#include <algorithm>
#include <cmath>

static double next(const double* x, int& k) { return x[k++]; }

UNFAD_GRADIENT double clipped_sum(const double* x, int n) {
  int k = 0;
  double s = 0.0;
  while (k < n) s += std::min(x[k++], 0.5);
  return s;
}

UNFAD_GRADIENT double floored_cursor(const double* x, int n) {
  int k = 0;
  double s = 0.0;
  for (int i = 0; i < n / 2; ++i) {
    const double a = std::max(next(x, k), -0.25);
    s += a * std::fmin(next(x, k), 1.0);
  }
  return s + k;
}

/* e2e
[{"function": "clipped_sum",
  "points": [[[0.1, 0.9, -1.3, 0.45, 2.0], 5], [[0.3], 1]]},
 {"function": "floored_cursor",
  "points": [[[0.1, 0.9, -1.3, 0.45, 2.0, -0.7], 6], [[0.3, 1.7, -0.6, 0.2], 4]]}]
*/
