// Member function templates called from a marked function, lowered into
// it: a method template on its parameter type (deduced and explicit) and
// one on an integer (`p.eval<3>(x)`, also spelled `p.template eval<4>(k)`).
#include <unfad/unfad.h>

struct Spring {
  double k, rest;
  template <class T> T energy(T x) const { return T(0.5) * T(k) * (x - T(rest)) * (x - T(rest)); }
};

struct Poly {
  double c[4];
  template <int N> double eval(double x) const {
    double s = 0.0;
    for (int i = N - 1; i >= 0; --i) s = s * x + c[i];
    return s;
  }
};

UNFAD_GRADIENT double uses(double k, double x) {
  Spring s{k, 1.0};
  Poly p{{1.0, k, 0.5, x}};
  return s.energy(x) + s.energy<double>(2.0 * x) + p.eval<3>(x) + p.template eval<4>(k);
}

/* e2e
[{"function": "uses",
  "points": [[2.0, 0.5], [0.7, -1.3], [-0.4, 1.1]],
  "grad_formula": [
    "0.5*(x - 1)**2 + 0.5*(2*x - 1)**2 + x + 3*k + 3*x*k*k",
    "k*(x - 1) + 2*k*(2*x - 1) + k + x + k**3"]}]
*/
