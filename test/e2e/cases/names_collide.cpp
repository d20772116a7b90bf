// User names that look like the tool's own temporaries (t, t_1, c, result,
// grad, Y, d_return): the generated code must keep them apart.
#include <unfad/unfad.h>

#include <cmath>

static double helper(double t, double c, int result) {
  if (result > 0)
    return t * c;
  return c - t;
}

UNFAD_GRADIENT double names_collide(double t, double c, double t_1, double grad, double Y) {
  const double result = t * (c - t_1);
  double d_return = grad * Y + result;
  d_return += helper(t_1, c, 1) + helper(Y, grad, 0);
  return std::sin(d_return) + t;
}

/* e2e
{"function": "names_collide",
 "points": [[0.5, 1.25, -0.75, 2.0, 0.25], [-1.5, 0.75, 0.5, -0.25, 1.5]],
 "grad_formula": [
   "cos(t*(c - t_1) + grad*Y + t_1*c + grad - Y)*(c - t_1) + 1",
   "cos(t*(c - t_1) + grad*Y + t_1*c + grad - Y)*(t + t_1)",
   "cos(t*(c - t_1) + grad*Y + t_1*c + grad - Y)*(-t + c)",
   "cos(t*(c - t_1) + grad*Y + t_1*c + grad - Y)*(Y + 1)",
   "cos(t*(c - t_1) + grad*Y + t_1*c + grad - Y)*(grad - 1)"]}
*/
