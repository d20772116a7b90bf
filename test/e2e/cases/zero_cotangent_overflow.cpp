// A loop whose state overflows to inf, and whose value reaches the result
// only through a branch not taken: the state's cotangent is zero, and the
// loop's backward sweep multiplied it by the infinite partials (0 * inf =
// NaN in d/dx and d/dy; finite differences: 0 and 2y). Found by the fuzzer
// (--features base,loops,arrays,views --seed 3, program 44). A loop's
// backward sweep now runs only when its state's cotangent is nonzero
// (lib/ad/rev/loops.cpp, loopTranspose).
#include <unfad/unfad.h>

#include <cmath>

// x = 3: g is inf after a dozen squarings; the result is y * y.
// x = 0.5: g stays small and the loop's sweep runs (the guard passes it).
UNFAD_GRADIENT double squared_past_overflow(double x, double y, int n) {
  double g = x;
  for (int i = 0; i < n; ++i) g = g * g + y;
  return g < 1e300 ? g * y : y * y;
}

// Two state variables: with useFirst false neither reaches the result and
// the sweep is skipped although `a` overflowed; with it true the sweep runs.
// (Both live while `a` overflows is still 0 * inf = NaN in d/dx: a zero
// cotangent of one state variable meets an infinite partial in a sweep that
// runs for the other. README, "Non-differentiable points".)
UNFAD_GRADIENT double two_states(double x, double y, int n, bool useFirst) {
  double a = x, b = y;
  for (int i = 0; i < n; ++i) {
    a = a * a;
    b = 0.5 * b + std::sin(x);
  }
  return useFirst ? (a < 1e300 ? a : 0.0) + b : y;
}

// The overflowing loop inside a branch of the function.
UNFAD_GRADIENT double in_branch(const double* x, int n, double k) {
  double r = k;
  if (x[0] > 0.0) {
    double p = 1.0;
    for (int i = 0; i < n; ++i) p *= std::exp(x[i] * k);
    r = p > 1e300 ? k * x[1] : p;
  }
  return r;
}

/* e2e
[{"function": "squared_past_overflow", "points": [[3.0, 0.75, 40], [0.5, 0.25, 3], [-3.0, 1.5, 12]]},
 {"function": "two_states", "points": [[3.0, 0.75, 40, false], [0.5, 0.25, 3, true], [0.5, 0.25, 3, false]]},
 {"function": "in_branch", "points": [[[2.0, 1.5, 3.0, 4.0], 4, 200.0], [[0.5, 0.25, 0.125, 0.5], 4, 0.5], [[-1.0, 1.0, 1.0, 1.0], 4, 2.0]]}]
*/
