// Loops with a condition variable (statements.cpp, loops.cpp): `while (T t =
// e)` and `for (init; T t = e; inc)` declare t anew before each test, as C++
// does; the body reads it (an active double, or a passive int), `continue`
// and `break` inside such loops, and a bool condition variable read in the
// body.
#include <unfad/unfad.h>

#include <cmath>

// The terms of a damped series until the guard gives 0.
UNFAD_GRADIENT double damped(double x, int n) {
  double s = 0.0;
  int k = 0;
  while (double w = k < n ? std::exp(-x * k) : 0.0) {
    ++k;
    if (k == 2) continue; // the next test declares w again
    s += w * w;
  }
  return s;
}

// A passive counter as the condition variable; the increment runs before
// each new declaration.
UNFAD_GRADIENT double weighted(const double* a, int n) {
  double s = 0.0;
  for (int k = 0; int left = n - k; ++k) s += left * a[k] * a[k];
  return s;
}

// Each test reads the next element: the loop stops at the first
// non-positive one, the end, or (break) a large product.
UNFAD_GRADIENT double positive_prefix(const double* a, int n) {
  double p = 1.0;
  int k = 0;
  while (bool more = k < n && a[k] > 0.0) {
    p *= a[k++] + (more ? 0.5 : 0.0);
    if (p > 100.0) break;
  }
  return p;
}

// The shape that was refused before: a helper's value as the condition
// variable, read and carried by the body.
static double halve(double r) { return r > 0.1 ? 0.5 * r : 0.0; }
UNFAD_GRADIENT double halvings(double x) {
  double s = 0.0, r = x;
  while (double t = halve(r)) {
    s += t;
    r = t;
  }
  return s;
}

/* e2e
[{"function": "damped", "points": [[0.3, 5], [1.1, 3], [0.7, 0]]},
 {"function": "weighted", "points": [[[0.5, -1.5, 0.3, 0.8], 4], [[2.0, 0.1], 2]]},
 {"function": "halvings", "points": [[1.3], [0.75], [0.05]]},
 {"function": "positive_prefix", "points": [[[0.5, 1.5, 0.3, -0.8, 2.0], 5], [[3.0, 4.0, 9.0, 2.0], 4]]}]
*/
