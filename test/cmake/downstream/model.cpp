#include <unfad/unfad.h>
#include <cmath>
#include "local.h"
#include "params.h"

UNFAD_GRADIENT double model(double a, double b) {
  if (a > b) return MODEL_SCALE * sq(a - MODEL_OFFSET) + std::sin(b);
  return std::exp(a * b) + b;
}

// A marked method of a class template: its gradient is generated for
// Spring<double>, which only spring_grad_error names (it never calls energy).
template <class T>
struct Spring {
  T k;
  T x0;
  UNFAD_GRADIENT T energy(T x) const { return T(0.5) * k * (x - x0) * (x - x0); }
};

// The largest error of Spring<double>'s gradient against its hand-derived one.
double spring_grad_error(double k, double x0, double x) {
  const Spring<double> s{k, x0};
  Spring<double> d{0.0, 0.0};
  double dx = 0.0;
  s.energy_grad(x, &d, &dx);
  return std::fmax(std::fabs(dx - k * (x - x0)),
                   std::fmax(std::fabs(d.k - 0.5 * (x - x0) * (x - x0)), std::fabs(d.x0 + k * (x - x0))));
}
