// Functions whose every path returns but that have no `return` at their end
// (valid C++, refused before): an if/else that both return, a switch whose
// cases all return, a `while (true)` left only by returns, and a helper of
// the same shape.
#include <unfad/unfad.h>

#include <cmath>

UNFAD_GRADIENT double smooth_relu(double x, double beta) {
  if (x > 0.0) {
    return x + std::log1p(std::exp(-beta * x)) / beta;
  } else {
    return std::log1p(std::exp(beta * x)) / beta;
  }
}

static double huber(double r, double delta) {
  if (std::abs(r) <= delta) return 0.5 * r * r;
  else return delta * (std::abs(r) - 0.5 * delta);
}

UNFAD_GRADIENT double robust_loss(const double* r, int n, double delta) {
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += huber(r[i], delta);
  return s;
}

// Newton's iteration for the square root, left by a return once converged
UNFAD_GRADIENT double newton_sqrt(double a) {
  double x = a > 1.0 ? a : 1.0;
  int it = 0;
  while (true) {
    const double next = 0.5 * (x + a / x);
    ++it;
    if (std::abs(next - x) < 1e-14 * x || it == 60) return next;
    x = next;
  }
}

UNFAD_GRADIENT double by_order(double x, int order) {
  switch (order) {
  case 0: return 1.0;
  case 1: return x;
  case 2: return 0.5 * (3.0 * x * x - 1.0);
  default: {
    double p0 = 1.0, p1 = x;
    for (int k = 1; k < order; ++k) {
      const double p2 = ((2.0 * k + 1.0) * x * p1 - k * p0) / (k + 1.0);
      p0 = p1;
      p1 = p2;
    }
    return p1;
  }
  }
}

/* e2e
[{"function": "smooth_relu", "points": [[0.7, 3.0], [-0.4, 2.0]]},
 {"function": "robust_loss", "points": [[[0.3, -2.5, 1.2, -0.1], 4, 1.0]],
  "grad_formula": ["[v if abs(v) <= delta else delta * (1 if v > 0 else -1) for v in r]",
                   "sum(0 if abs(v) <= delta else abs(v) - delta for v in r)"]},
 {"function": "newton_sqrt", "points": [[2.0], [0.25], [9.0]], "grad_formula": ["0.5 / sqrt(a)"]},
 {"function": "by_order", "points": [[0.3, 0], [0.3, 1], [0.3, 2], [0.3, 3], [-0.6, 4]]}]
*/
