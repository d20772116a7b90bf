// Standard algorithms given lambdas and function objects, over vectors,
// pointer ranges and C arrays: std::transform (unary, binary, in place, into
// an output), std::accumulate and std::inner_product with operations,
// std::for_each writing a captured accumulator and the elements,
// std::transform_reduce (all three forms), std::generate.
#include <unfad/unfad.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>
#include <vector>

struct Vec3 {
  double x, y, z;
};

// a functor: plain members and call operators
struct Affine {
  double a, b;
  double operator()(double v) const { return a * v + b; }
  double operator()(double s, double v) const { return s + a * v * v; }
};

static double dot(const Vec3& a, const Vec3& b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

UNFAD_GRADIENT double transforms(const std::vector<double>& x, double a, double b) {
  std::vector<double> y(x.size());
  std::transform(x.begin(), x.end(), y.begin(), [&](double v) { return a * v + b; });
  std::transform(y.begin(), y.end(), y.begin(), [](double v) { return std::tanh(v); }); // in place
  std::vector<double> z(x.size());
  std::transform(x.begin(), x.end(), y.begin(), z.begin(), [a](double u, double v) { return u * v - a; });
  return std::accumulate(z.begin(), z.end(), 0.0);
}

UNFAD_GRADIENT void transform_out(const double* x, int n, double s, double* out) {
  std::transform(x, x + n, out, [s](double v) { return s * std::exp(v); });
}

UNFAD_GRADIENT double reductions(const std::vector<double>& a, const std::vector<double>& b, double c) {
  const double ss = std::accumulate(a.begin(), a.end(), 0.0, [](double s, double v) { return s + v * v; });
  const double d2 = std::inner_product(a.begin(), a.end(), b.begin(), 0.0, std::plus<>(),
                                       [c](double u, double v) { return (u - v) * (u - v) * c; });
  const double prod = std::accumulate(b.begin(), b.end(), 1.0, std::multiplies<double>());
  const double tr1 = std::transform_reduce(a.begin(), a.end(), b.begin(), 0.5);
  const double tr2 = std::transform_reduce(a.begin(), a.end(), b.begin(), 0.0, std::plus<>(),
                                           [](double u, double v) { return u * std::sin(v); });
  const double tr3 = std::transform_reduce(b.begin(), b.end(), 0.0, std::plus<>(), [&](double v) { return c * v * v; });
  return ss + d2 + prod + tr1 + tr2 + tr3;
}

UNFAD_GRADIENT double functors(const double* x, int n, double a, double b) {
  double y[8];
  const Affine f{a, b};
  std::transform(x, x + n, y, f);
  return std::accumulate(y, y + n, 0.0, Affine{b, 1.0});
}

UNFAD_GRADIENT double for_each_energy(const std::vector<Vec3>& p, double k) {
  double e = 0.0;
  std::for_each(p.begin(), p.end(), [&](const Vec3& q) { e += k * dot(q, q); });
  double buf[4] = {k, 2.0 * k, k * k, 1.0};
  std::for_each(buf, buf + 4, [](double& v) { v = v * v; });
  int i = 0;
  double g[3];
  std::generate(g, g + 3, [&] { return k * (++i); });
  return e + buf[0] + buf[1] + buf[2] + g[2] * g[1];
}

/* e2e
[{"function": "transforms", "points": [[[0.5, -1.25, 2.0], 0.7, 0.1], [[1.5, 0.25], -0.3, 0.4]],
  "value_formula": "sum(u*tanh(a*u+b) - a for u in x)"},
 {"function": "transform_out", "points": [[[0.5, -1.25, 2.0], 3, 1.5, null]], "outputs": {"out": 3}},
 {"function": "reductions", "points": [[[0.5, -1.25, 2.0], [1.5, 0.25, -0.5], 0.7], [[1.5, 0.25], [0.3, -0.6], -1.1]]},
 {"function": "functors", "points": [[[0.5, -1.25, 2.0], 3, 0.7, -0.4]],
  "value_formula": "sum(b*(a*v+b)**2 for v in x[:n])"},
 {"function": "for_each_energy", "points": [[[[0.5, -1.25, 2.0], [1.5, 0.25, -0.5]], 0.7]],
  "value_formula": "k*sum(q[0]**2+q[1]**2+q[2]**2 for q in p) + k*k + 4*k*k + k**4 + 6*k*k"}]
*/
