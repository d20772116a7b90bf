// Tapes in a helper's pullback, which runs once per call of the helper (here
// once per row of a loop): unfad::tape holds up to 16 elements inside the
// object, on the stack, and more on the heap. Lengths 3 and 16 (inside), 17
// and 40 (heap); the reference is finite differences.
#include <unfad/unfad.h>

#include <cmath>

// A damped recurrence: the derivative of each step needs the state it
// started from, so the pullback tapes the states (and the tanh values).
static double settle(const double* w, int n, double x) {
  double h = x;
  for (int i = 0; i < n; ++i) h = std::tanh(w[i] * h + 0.25) + 0.5 * h;
  return h;
}

UNFAD_GRADIENT double settle_all(const double* w, const double* xs, int n, int m) {
  double s = 0.0;
  for (int j = 0; j < m; ++j) s += settle(w, n, xs[j]) * xs[j];
  return s;
}

/* e2e
{"function": "settle_all", "points": [[[0.0899, 0.8869, 0.3846], [0.3, -0.7], 3, 2], [[0.1788, 0.8977, 0.3015, -0.7364, -0.6955, 0.3644, 0.8904, 0.112, -0.8305, -0.5563, 0.5329, 0.8414, -0.0827, -0.8857, -0.3911, 0.6764], [0.5, -0.2, 0.9], 16, 3], [[0.266, 0.8996, 0.2153, -0.7844, -0.635, 0.4447, 0.8729, 0.0223, -0.861, -0.4829, 0.6026, 0.8053, -0.1718, -0.8972, -0.3082, 0.7323, 0.7], [0.4], 17, 1], [[0.3505, 0.8925, 0.127, -0.8245, -0.5681, 0.5206, 0.8467, -0.0676, -0.8828, -0.4047, 0.6663, 0.7612, -0.2591, -0.8998, -0.2223, 0.7809, 0.64, -0.4385, -0.8746, -0.0295, 0.8589, 0.4889, -0.5973, -0.8085, 0.1647, 0.8966, 0.315, -0.7281, -0.7045, 0.3512, 0.8924, 0.1262, -0.8249, -0.5675, 0.5212, 0.8464, -0.0684, -0.883, -0.404, 0.6669], [-0.6, 0.35], 40, 2]]}
*/
