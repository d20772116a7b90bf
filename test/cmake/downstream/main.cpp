#include <cmath>
#include <cstdio>
#include <initializer_list>

double model(double a, double b);
double model_grad(double a, double b, double *d_a, double *d_b);
double other(double x);
double other_grad(double x, double *d_x);
double spring_grad_error(double k, double x0, double x);

static int check(const char *what, double g, double fd) {
  const bool ok = std::fabs(g - fd) <= 1e-6 * std::fmax(1.0, std::fabs(g));
  std::printf("%s: unfad %.12g  finite difference %.12g  %s\n", what, g, fd, ok ? "ok" : "MISMATCH");
  return ok ? 0 : 1;
}

int main() {
  const double h = 1e-5;
  int bad = 0;
  for (double a : {0.3, 1.7}) {
    const double b = 0.9;
    double da = 0, db = 0;
    model_grad(a, b, &da, &db);
    bad += check("dmodel/da", da, (model(a + h, b) - model(a - h, b)) / (2 * h));
    bad += check("dmodel/db", db, (model(a, b + h) - model(a, b - h)) / (2 * h));
  }
  double dx = 0;
  other_grad(0.8, &dx);
  bad += check("dother/dx", dx, (other(0.8 + h) - other(0.8 - h)) / (2 * h));
  bad += check("Spring<double>::energy_grad error", spring_grad_error(3.0, 0.5, 1.4), 0.0);
  std::printf("%s\n", bad ? "FAILED" : "PASSED");
  return bad;
}
