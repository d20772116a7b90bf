// What the front end knows of an array's length is per function: a local
// array of three elements named `y` in one marked function said nothing
// about the parameter `y` of the next one. Before, `t = y;` in `second`
// copied three elements of y whatever its size (the first function's `y`
// shadowed it), and `second`'s value and gradient were wrong for five.
#include <unfad/unfad.h>

#include <cmath>
#include <vector>

UNFAD_GRADIENT double first(double a) {
  std::vector<double> y(3, a);
  y[1] *= a;
  return y[0] + y[1] + y[2];
}

UNFAD_GRADIENT double second(const std::vector<double>& y) {
  std::vector<double> t(y.size());
  t = y;
  double s = 0;
  for (double v : t) s += std::sin(v) * v;
  return s;
}

/* e2e
[{"function": "first", "points": [[0.5], [-1.5]]},
 {"function": "second", "points": [[[0.5, -1.25, 2.0, 0.75, 0.1]], [[1.5, 0.25]]]}]
*/
