// `return` inside loops: the loop ends with (done, returned, value) in its
// state and the rest of the function runs only when it did not return.
// Search loops, a return from a nested loop, from a while/do/range-for, a
// helper that returns from its loop, a return inside a returning if, and a
// void function (an output) returning early from a loop.
#include <unfad/unfad.h>

#include <cmath>
#include <vector>

UNFAD_GRADIENT double first_above(const double* x, int n, double t) {
  double s = 0.0;
  for (int i = 0; i < n; ++i) {
    if (x[i] > t) return s * x[i] + t;
    s += x[i] * x[i];
  }
  return s;
}

UNFAD_GRADIENT double nested_return(const double* a, int n, double y) {
  double acc = y;
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      acc = acc * 0.5 + a[i] * a[j];
      if (acc > 3.0) return acc * y;
    }
    acc += std::sin(a[i]);
  }
  return acc - y;
}

UNFAD_GRADIENT double while_return(double x, double k) {
  double v = x;
  int steps = 0;
  while (steps < 50) {
    v = v + 0.1 * k * v;
    if (v > 4.0) return v * k;
    ++steps;
  }
  return -v;
}

UNFAD_GRADIENT double do_return(double x) {
  double v = x;
  int i = 0;
  do {
    if (v < 0.5) return std::exp(v);
    v = v * 0.75;
    ++i;
  } while (i < 10);
  return v;
}

UNFAD_GRADIENT double range_return(const std::vector<double>& xs, double w) {
  double s = 0.0;
  for (double x : xs) {
    if (s + x * w > 2.5) return s * w;
    s += x * w;
  }
  return s + w;
}

static double first_positive(const double* x, int n) {
  for (int i = 0; i < n; ++i)
    if (x[i] > 0) return x[i];
  return 0;
}

UNFAD_GRADIENT double helper_return(const double* x, int n) { return first_positive(x, n) * x[0]; }

UNFAD_GRADIENT double if_then_loop_return(const double* x, int n, double c) {
  if (c > 0) {
    for (int i = 0; i < n; ++i)
      if (x[i] * c > 1.0) return x[i] * c;
    c = c * 2.0;
  }
  return c + x[0];
}

UNFAD_GRADIENT void scale_until(const double* x, int n, double k, double* out) {
  for (int i = 0; i < n; ++i) {
    if (x[i] < 0) return;
    out[i] = k * x[i] * x[i];
  }
  out[0] += k;
}

/* e2e
[{"function": "first_above",
  "points": [[[0.5, -1.25, 2.0, 0.75], 4, 1.5], [[0.5, -1.25, 0.25], 3, 1.5], [[3.0], 1, 0.5]]},
 {"function": "nested_return",
  "points": [[[1.5, -0.5, 2.0], 3, 1.25], [[0.3, 0.2], 2, 0.5], [[2.5], 1, 0.7]]},
 {"function": "while_return",
  "points": [[1.3, 0.7], [0.5, 0.2], [-1.0, 0.3]]},
 {"function": "do_return",
  "points": [[0.3], [2.0], [100.0]]},
 {"function": "range_return",
  "points": [[[0.5, 1.0, 2.0], 1.1], [[0.5, 0.25], 0.9]]},
 {"function": "helper_return",
  "points": [[[-0.5, 2.0, 3.0], 3], [[1.5, -2.0], 2], [[-1.0, -2.0], 2]]},
 {"function": "if_then_loop_return",
  "points": [[[0.25, 0.75, 2.0], 3, 0.8], [[0.25, 0.5], 2, 0.8], [[0.5, 3.0], 2, -0.5]]},
 {"function": "scale_until", "outputs": {"out": 4},
  "points": [[[0.5, 1.5, -1.0, 2.0], 4, 1.3], [[0.5, 1.5, 0.25, 2.0], 4, 0.7]]}]
*/
