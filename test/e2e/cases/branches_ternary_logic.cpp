// ?: on active values, && / || / ! on passive and active comparisons.
#include <unfad/unfad.h>

#include <cmath>

UNFAD_GRADIENT double ternary(double x, double y) {
  const double m = x > y ? x : y;
  const double s = (x * y > 0.0) ? x * y : -x * y;
  return m * s + (x < 0.0 ? std::exp(x) : 1.0 + x);
}

UNFAD_GRADIENT double logic(double x, double y, int n, bool flag) {
  double r = x + y;
  if (n > 0 && x > 0.0)
    r = r * x;
  if (flag || y < -1.0)
    r = r + y * y;
  if (!(n == 2) && !flag)
    r = r * 2.0;
  const bool inside = x > -1.0 && x < 1.0 && y > -1.0 && y < 1.0;
  return inside ? r * r : r;
}

/* e2e
[{"function": "ternary",
  "points": [[1.5, 0.5], [0.5, 1.5], [-1.5, 0.75], [-0.5, -2.0]],
  "grad_formula": [
    "(1 if x > y else 0)*abs(x*y) + max(x,y)*(y if x*y > 0 else -y) + (exp(x) if x < 0 else 1)",
    "(0 if x > y else 1)*abs(x*y) + max(x,y)*(x if x*y > 0 else -x)"]},
 {"function": "logic",
  "points": [[0.5, 0.25, 1, false], [0.5, 0.25, 2, true], [0.5, -1.5, 0, false],
             [-0.5, 0.5, 1, true], [2.5, -0.5, 2, false], [-2.5, 0.75, 0, true]]}]
*/
