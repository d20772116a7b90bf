// Unmarked helpers: static, inline, called twice, nested (a helper calling
// helpers), with passive arguments.
#include <unfad/unfad.h>

#include <cmath>

static double sq(double a) { return a * a; }

inline double smooth_abs(double a, double eps) { return std::sqrt(a * a + eps); }

static double norm2(double a, double b) { return std::sqrt(sq(a) + sq(b)); }

double scaled(double a, int k) { return a * k + sq(a); } // external linkage, passive int

UNFAD_GRADIENT double helpers_basic(double x, double y) {
  const double n = norm2(x, y);       // nested helpers
  const double s = sq(x) + sq(y + 1); // one helper called twice
  return n * s + smooth_abs(x - y, 1e-2) + scaled(y, 3);
}

/* e2e
{"function": "helpers_basic",
 "points": [[0.5, 1.25], [-1.5, 0.75], [2.0, -2.5], [0.25, 0.25]],
 "grad_formula": [
   "x/hypot(x,y)*(x*x + (y+1)**2) + hypot(x,y)*2*x + (x - y)/sqrt((x - y)**2 + 1e-2)",
   "y/hypot(x,y)*(x*x + (y+1)**2) + hypot(x,y)*2*(y + 1) - (x - y)/sqrt((x - y)**2 + 1e-2) + 3 + 2*y"]}
*/
