// Loop shapes with awkward trip counts: a start past the bound (zero trips),
// a stride of 2, an inclusive bound, a decreasing loop to 1, each with a
// loop-carried value that the backward sweep needs.
#include <unfad/unfad.h>

#include <cmath>

// Runs n - 3 times when n > 3 and not at all otherwise.
UNFAD_GRADIENT double from_three(const double* x, int n) {
  double s = x[0];
  for (int i = 3; i < n; ++i) s = s * std::sin(x[i]) + x[i];
  return s * s;
}

// Every other element, inclusive bound.
UNFAD_GRADIENT double stride_two(const double* x, int last) {
  double p = 1.0;
  for (int i = 0; i <= last; i += 2) p = p * (1.0 + x[i] * x[i]);
  return std::log(p);
}

// Decreasing to 1 (x[0] is not in the loop).
UNFAD_GRADIENT double down_to_one(const double* x, int n) {
  double q = 0.5;
  for (int i = n - 1; i > 0; --i) q = q * q + x[i];
  return q + x[0];
}

/* e2e
[{"function": "from_three",
  "points": [[[0.5, 1.0, 2.0, 0.3, -0.7, 1.2], 6], [[0.8, -0.4], 2], [[1.5, 0.2, 0.3], 3],
             [[0.5, 1.0, 2.0, 0.9], 4]]},
 {"function": "stride_two",
  "points": [[[0.5, 1.0, -2.0, 0.3, 0.7], 4], [[0.5, 1.0, -2.0, 0.3], 3], [[1.5], 0], [[0.25, 2.0], 1]]},
 {"function": "down_to_one",
  "points": [[[0.2, 0.3, -0.4, 0.1], 4], [[0.7], 1], [[0.1, 0.25], 2]]}]
*/
