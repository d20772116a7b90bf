// A marked function with a branch and a helper; main calls f_grad (defined
// only by the plugin) and checks it against central finite differences.
#include <unfad/unfad.h>
#include <cmath>
#include "fdcheck.h"

static double helper(double a, double b) { return std::sin(a) * b + a * a; }

UNFAD_GRADIENT double f(double x, double y) {
  double r = helper(x, y);
  if (x > y) r = r * x;
  else r = r + std::exp(y) / x;
  return r;
}

int check(double x, double y) {
  double dx = 0, dy = 0;
  const double v = f_grad(x, y, &dx, &dy);
  const double h = 1e-5;
  int bad = 0;
  if (v != f(x, y)) bad = 1;
  bad += fd_check("df/dx", dx, (f(x + h, y) - f(x - h, y)) / (2 * h));
  bad += fd_check("df/dy", dy, (f(x, y + h) - f(x, y - h)) / (2 * h));
  return bad;
}

int main() {
  int unused_after_the_block; // line 28: -Wall must point here
  int bad = check(1.3, 0.4) + check(0.5, 1.5);
  std::printf("%s\n", bad ? "FAILED" : "PASSED");
  return bad;
}
