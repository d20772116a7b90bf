// Functions returning references, read as values: a const reference to the
// larger of two arguments, an accessor into an array, std::min/std::max
// bound to const references, std::clamp.
#include <unfad/unfad.h>

#include <algorithm>
#include <vector>

static const double& larger(const double& a, const double& b) { return a > b ? a : b; }

static double& at(std::vector<double>& v, int i) { return v[static_cast<size_t>(i)]; }

static const double& coord(const double* p, int i) { return p[i]; }

UNFAD_GRADIENT double peak_product(double a, double b, double c) {
  const double& m = larger(a, b);       // a copy: neither a nor b changes
  const double& lo = std::min(b, c);
  return m * lo + larger(c, 2.0 * a) * std::max(a, c);
}

UNFAD_GRADIENT double scaled_sum(const double* x, int n, double k) {
  std::vector<double> v(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) v[static_cast<size_t>(i)] = k * x[i];
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += at(v, i) * coord(x, i) + std::clamp(at(v, i), -1.0, 1.0);
  return s;
}

/* e2e
[{"function": "peak_product",
  "points": [[1.5, 0.5, 2.0], [0.3, 0.8, -0.4], [2.5, 1.0, 1.2]]},
 {"function": "scaled_sum",
  "points": [[[0.5, -1.5, 2.0, 0.25], 4, 0.8], [[0.3, 0.6], 2, -2.5]],
  "grad_formula": [
    "[2*k*x[i] + (k if abs(k*x[i]) < 1 else 0) for i in range(n)]",
    "sum(x[i]*x[i] + (x[i] if abs(k*x[i]) < 1 else 0) for i in range(n))"]}]
*/
