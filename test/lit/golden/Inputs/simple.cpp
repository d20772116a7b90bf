#include <unfad/unfad.h>

#include <cmath>

UNFAD_GRADIENT double simple_f(double x, double y) {
  const double s = std::sin(x) * y;
  return s * s + x;
}

double after(double x) { return simple_f(x, 2.0); }
