// Forward mode through the plugin: f_jvp (defined only by the plugin) along
// a direction against central finite differences, and against the gradient
// of a reverse-mode wrapper in the same translation unit (dot(grad, v)).
#include <unfad/unfad.h>
#include <cmath>
#include "fdcheck.h"

static double helper(double a, double b) { return std::sin(a) * b + a * a; }

UNFAD_JVP double f(double x, const double* w, int n) {
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += helper(x * w[i], w[i]);
  return x > 1.0 ? s * x : s + std::exp(x);
}

UNFAD_GRADIENT double f_rev(double x, const double* w, int n) { return f(x, w, n); }

// A class parameter whose class the generated code mirrors (a constructor:
// not an aggregate), its tangent `CP& d_c` (found by the fuzzer: the jvp
// named `CP_fields` without defining it, and copied d_c into one).
struct CP {
  double w = 1.0, b = 0.0;
  CP() = default;
  CP(double w0, double b0) : w(w0), b(b0) {}
  double eval(double v) const { return w * std::tanh(v) + b * v; }
};
static double cpsum(const CP& c, const double* a, int n) {
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += c.eval(a[i]);
  return s;
}
UNFAD_JVP double g(const double* a, int n, CP& c, double x) { return x * cpsum(c, a, n); }

int check_class(double x) {
  const double a[3] = {0.3, -0.7, 1.1}, da[3] = {0.2, 0.1, -0.3};
  CP c(1.3, 0.4), dc(0.5, -0.2);
  const double dx = 0.7, h = 1e-5;
  double dret = 0.0;
  int bad = g_jvp(a, 3, c, x, da, dc, dx, &dret) != g(a, 3, c, x);
  double ap[3], am[3];
  for (int i = 0; i < 3; ++i) ap[i] = a[i] + h * da[i], am[i] = a[i] - h * da[i];
  CP cp(c.w + h * dc.w, c.b + h * dc.b), cm(c.w - h * dc.w, c.b - h * dc.b);
  bad += fd_check("class parameter: jvp vs finite differences", dret, (g(ap, 3, cp, x + h * dx) - g(am, 3, cm, x - h * dx)) / (2 * h));
  return bad;
}

int check(double x) {
  const double w[3] = {0.5, -1.25, 2.0}, dw[3] = {0.3, 0.1, -0.7};
  const double dx = 0.6;
  double dret = 0.0;
  int bad = f_jvp(x, w, 3, dx, dw, &dret) != f(x, w, 3);
  const double h = 1e-5;
  double wp[3], wm[3];
  for (int i = 0; i < 3; ++i) wp[i] = w[i] + h * dw[i], wm[i] = w[i] - h * dw[i];
  bad += fd_check("jvp vs finite differences", dret, (f(x + h * dx, wp, 3) - f(x - h * dx, wm, 3)) / (2 * h));
  double gx = 0.0, gw[3] = {0.0, 0.0, 0.0};
  f_rev_grad(x, w, 3, &gx, gw);
  bad += fd_check("jvp vs dot(grad, v)", dret, gx * dx + gw[0] * dw[0] + gw[1] * dw[1] + gw[2] * dw[2]);
  return bad;
}

int main() {
  int bad = check(0.4) + check(1.7) + check_class(0.9);
  std::printf("%s\n", bad ? "FAILED" : "PASSED");
  return bad;
}
