#include "inc/model.h"

#include <cmath>
#include <cstdio>

UNFAD_GRADIENT double local(double x) { return 3.0 * x * x; }

// d/dx (x^2 y) = 2xy and d/dy = x^2; d/dx 3x^2 = 6x (by hand).
int main() {
  double dx = 0, dy = 0, dl = 0;
  const double value = model_grad(1.5, 2.0, &dx, &dy);
  local_grad(2.0, &dl);
  std::printf("%g %g %g %g\n", value, dx, dy, dl);
  return std::fabs(value - 4.5) < 1e-12 && std::fabs(dx - 6.0) < 1e-12 && std::fabs(dy - 2.25) < 1e-12 &&
                 std::fabs(dl - 12.0) < 1e-12
             ? 0
             : 1;
}
