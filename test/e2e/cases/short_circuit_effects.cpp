// Side effects in the right operand of && and || and in the branches of ?: (lib/frontend/
// effectful_conditions.cpp): C++ runs them only when the left operand does
// not decide. They were refused ("increment or decrement inside the right
// operand of '||' is not supported"); now the right operand is a branch of
// its own, carrying its effects and the new versions of the locals it
// assigns.
#include <unfad/unfad.h>

#include <cmath>
#include <vector>

// Newton's method for sqrt(a) with a convergence test and an iteration cap
// in one condition, as it is often written.
UNFAD_GRADIENT double newton_sqrt(double a) {
  double x = a;
  int it = 0;
  while (true) {
    const double nx = 0.5 * (x + a / x);
    if (std::abs(nx - x) < 1e-12 || ++it > 50) {
      x = nx;
      break;
    }
    x = nx;
  }
  return x + 1e-3 * it;
}

// A counter advanced only for positive values, and a float array updated
// in the right operand of && (a running sum that decides the branch).
UNFAD_GRADIENT double gated(const double* x, int n) {
  std::vector<double> acc(n, 0.0);
  int count = 0;
  double s = 0.0;
  for (int r = 0; r < 2; ++r)
    for (int i = 0; i < n; ++i) {
      if (x[i] > 0.0 && (acc[i] += x[i] * x[i]) > 1.0) s += std::sin(acc[i]);
      if (x[i] < 0.5 || (count += 1) > 2) s += 0.1 * x[i] * count;
    }
  return s + acc[0];
}

// A loop condition scanning while the values stay positive.
UNFAD_GRADIENT double leading_positive(const double* x, int n) {
  int i = 0;
  double s = 0.0;
  while (i < n && x[i++] > 0.0) s += std::exp(-x[i - 1]) * i;
  return s;
}

// A comma expression with an increment as the right operand of && in a
// loop condition (refused until now: test/lit/diagnostics/comma_operator.cpp).
UNFAD_GRADIENT double comma_in_condition(double x, int n) {
  double s = 0;
  int k = 0;
  while (k < n && (++k, k <= n - 1)) s += x * x * k;
  return s + k;
}

// Side effects in the branches of ?: (a counter, and a store into a local
// array), each run only when chosen.
UNFAD_GRADIENT double chosen_effects(const double* x, int n) {
  double s = 0;
  int k = 0;
  std::vector<double> seen(n, 0.0);
  for (int i = 0; i < n; ++i) s += (x[i] > 0.0 ? (++k, x[i] * x[i]) : (seen[i] = std::exp(x[i])) * 0.5);
  return s * k + seen[1];
}

// An assignment in a branch of ?:, and a helper writing through its
// reference parameter in the other (both refused before:
// test/lit/diagnostics/assign_in_expr.cpp, reference_param_conditional.cpp).
static double bump(double& acc, double v) {
  acc += v;
  return acc;
}

UNFAD_GRADIENT double assigned_in_branch(double x, double y) {
  double s = 0.5;
  double w = 0.0;
  const double z = x > 0 ? (w = x * y) : 1.0;
  const double t = x > y ? x : bump(s, y * y);
  return z * w + s * t;
}

// The same variable assigned in both branches of ?: (only one runs: no
// unsequenced writes), a running "last value kept, else decayed".
UNFAD_GRADIENT double kept_or_decayed(const std::vector<double>& x, double c) {
  double s = 0, last = 0;
  for (double v : x) s += (v > c) ? (last = v) : (last *= 0.5);
  return s + last;
}

/* e2e
[{"function": "kept_or_decayed", "points": [[[0.3, -1.2, 2.0, 0.5], 0.1], [[-0.3, 1.2, 0.05, 0.5], 0.1]]},
 {"function": "newton_sqrt", "points": [[2.0], [0.7]]},
 {"function": "gated", "points": [[[0.55, -1.25, 2.0, 0.8], 4], [[1.5, 0.25, -0.75], 3]]},
 {"function": "comma_in_condition", "points": [[1.5, 4], [0.3, 1]]},
 {"function": "chosen_effects", "points": [[[0.5, -1.25, 2.0, -0.8], 4], [[1.5, 0.25, -0.75], 3]]},
 {"function": "assigned_in_branch", "points": [[0.7, 1.3], [1.5, -0.5], [-0.4, 0.6]]},
 {"function": "leading_positive", "points": [[[0.5, 1.25, -2.0, 0.8], 4], [[1.5, 0.25, 0.75], 3]]}]
*/
