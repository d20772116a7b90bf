// Lambdas in the shapes of real code: created in a loop body and called in
// branches, a by-value struct capture calling a helper, a generic lambda in
// std::transform, std::for_each writing the elements of an in/out vector, a
// template writing an output through a lambda, a captured counter.
#include <unfad/unfad.h>
#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

struct Spring { double k, rest; };

static double energy(double k, double d) {
  double s = 0.0;
  for (int i = 0; i < 3; ++i) s += 0.5 * k * d * d / 3.0;
  return s;
}

UNFAD_GRADIENT double in_loop(const double* x, int n, double w) {
  double s = 0.0;
  for (int i = 0; i < n; ++i) {
    const double xi = x[i];
    auto f = [=](double v) { return xi * v + w; };
    auto g = [&](double v) { s += v; };
    if (xi > 0) g(f(xi));
    else g(f(w) * 2.0);
  }
  return s;
}

UNFAD_GRADIENT void scale_inplace(std::vector<double>& y, double a) {
  std::for_each(y.begin(), y.end(), [a](double& v) { v = a * v * v; });
}

UNFAD_GRADIENT double struct_capture(double k, double r, const double* d, int n) {
  const Spring sp{k, r};
  auto e = [sp](double x) { return energy(sp.k, x - sp.rest); };
  std::vector<double> t(n);
  std::transform(d, d + n, t.begin(), [](auto v) { return v * 1.5; });
  double tot = 0.0;
  for (int i = 0; i < n; ++i) tot += e(t[i]);
  return tot;
}

template <class F>
void fill_with(double* out, int n, F f) {
  for (int i = 0; i < n; ++i) out[i] = f(i);
}

UNFAD_GRADIENT void template_writes(const double* x, int n, double c, double* out) {
  fill_with(out, n, [&](int i) { return c * x[i] * x[n - 1 - i]; });
}

UNFAD_GRADIENT double int_init(const double* x, int n) {
  const double a = std::accumulate(x, x + n, 0.0, [](double s, double v) { return s + std::fabs(v); });
  int count = 0;
  std::for_each(x, x + n, [&](double v) { if (v > 0) ++count; });
  return a * count;
}

/* e2e
[{"function": "in_loop", "points": [[[0.5, -1.25, 2.0], 3, 1.5]]},
 {"function": "scale_inplace", "points": [[[0.5, -1.25, 2.0], 1.5]], "inouts": {"y": 3}},
 {"function": "struct_capture", "points": [[0.7, 0.3, [0.5, -1.25, 2.0], 3]]},
 {"function": "template_writes", "points": [[[0.5, -1.25, 2.0], 3, 1.5, null]], "outputs": {"out": 3}},
 {"function": "int_init", "points": [[[0.5, -1.25, 2.0], 3]]}]
*/
