#include <unfad/unfad.h>

UNFAD_GRADIENT double f(double x) {
  double r = x;
  if (x > 0) goto done;
  r = r * x;
done:
  return r;
}

int main() { double d = 0; return f_grad(1.0, &d) > 0 ? 0 : 1; }
