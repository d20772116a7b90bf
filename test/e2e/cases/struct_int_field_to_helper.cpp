// Regression: a struct with a passive int field (Obs { double t, y; int w; })
// passed to a helper failed with "internal error: C++ printer: cotangent of
// 'o' has type (f64, f64, ())": its cotangent is a plain tuple with a unit for
// the int field, while the pullback's adjoint parameter is an Obs*. The
// cotangent now crosses function boundaries as the struct (int fields 0).
#include <unfad/unfad.h>

struct Obs {
  double t;
  double y;
  int w;
};

static double wres(Obs o, double a) { return o.w * (a * o.t - o.y) * (a * o.t - o.y); }

UNFAD_GRADIENT double f(double t, double y, double a) {
  const Obs o{t, y, 2};
  return wres(o, a);
}

/* e2e
{"function": "f", "points": [[0.5, -1.25, 0.7], [1.5, 0.25, -0.4]],
 "grad_formula": ["4*(a*t - y)*a", "-4*(a*t - y)", "4*(a*t - y)*t"]}
*/
