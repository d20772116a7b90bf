// Helpers taking a std::vector or a std::array by value (a copy they may
// change as their own): each call copies the argument into a fresh array
// first, so the caller's array is unchanged after the call and its
// adjoint gets the copy's. Also in a loop, the same array passed twice, and
// a constructor's sink parameter (`Poly(std::vector<double> c) :
// c_(std::move(c))`), a marked function's own by-value parameter, a lambda's
// and a helper's lowered into its caller.
#include <unfad/unfad.h>

#include <array>
#include <cmath>
#include <vector>

static double centered_square(std::vector<double> v) {
  double m = 0.0;
  for (double x : v) m += x;
  m /= double(v.size());
  for (auto& x : v) x -= m;  // the helper's own copy
  double s = 0.0;
  for (double x : v) s += x * x;
  return s / double(v.size());
}

static double scaled_norm(std::array<double, 3> a, double k) {
  a[0] *= k;
  return std::sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
}

static double dot_twice(std::vector<double> a, std::vector<double> b) {
  double s = 0.0;
  for (size_t i = 0; i < a.size(); ++i) {
    a[i] *= 2.0;
    s += a[i] * b[i];
  }
  return s;
}

// a sink parameter of a constructor, moved into the member
struct Poly {
  std::vector<double> c;
  explicit Poly(std::vector<double> coeffs) : c(std::move(coeffs)) {}
  double operator()(double x) const {
    double r = 0.0;
    for (int j = int(c.size()) - 1; j >= 0; --j) r = r * x + c[j];
    return r;
  }
};

UNFAD_GRADIENT double fit(const std::vector<double>& coeffs, const std::vector<double>& xs) {
  Poly p(coeffs);
  double loss = 0.0;
  for (size_t i = 0; i < xs.size(); ++i) {
    const double r = p(xs[i]) - 1.0;
    loss += r * r;
  }
  return loss;
}

UNFAD_GRADIENT double variance_mix(const std::vector<double>& x) {
  std::vector<double> y(x.size());
  for (size_t i = 0; i < x.size(); ++i) y[i] = std::sin(x[i]);
  const double a = centered_square(y);  // y unchanged after
  double s = 0.0;
  for (size_t i = 0; i < y.size(); ++i) s += y[i] * x[i];
  return a + s + centered_square(x) + dot_twice(y, y);
}

UNFAD_GRADIENT double norms(const std::array<double, 3>& p, double k) {
  std::array<double, 3> q = p;
  q[1] *= k;
  double s = 0.0;
  for (int r = 0; r < 3; ++r) {
    s += scaled_norm(q, k + r);
    q[2] += 0.5 * q[0];
  }
  return s + q[2] + scaled_norm(p, 2.0);
}

// a marked function's own by-value parameter, changed in place: the
// gradient is the caller's values' (f_grad's `x` is its own copy too)
UNFAD_GRADIENT double centred_cubes(std::vector<double> x) {
  double m = 0.0;
  for (double v : x) m += v;
  m /= double(x.size());
  for (auto& v : x) v -= m;
  double s = 0.0;
  for (double v : x) s += v * v * v;
  return s;
}

// one only read (no copy is made), and a std::array changed
UNFAD_GRADIENT double read_only(std::vector<double> x, std::array<double, 2> w) {
  w[1] *= 2.0 + x[1];
  return x[0] * w[0] + x[1] * w[1];
}

// a lambda and a helper with a reference parameter (lowered into the
// caller) taking a vector by value
static void squares_sum(std::vector<double> v, double& out) {
  for (auto& e : v) e *= e;
  out = v[0] + v[1];
}

UNFAD_GRADIENT double lambda_copy(const std::vector<double>& x) {
  auto f = [](std::vector<double> v) {
    v[0] += 1.0;
    return v[0] * v[1];
  };
  double o = 0.0;
  squares_sum(x, o);
  return f(x) + x[0] * o + f(x);
}

/* e2e
[{"function": "fit",
  "points": [[[0.5, -1.0, 0.25], [0.3, -0.7, 1.1]], [[2.0, 0.5], [1.5]]]},
 {"function": "variance_mix",
  "points": [[[0.3, -0.5, 0.8, 1.1]], [[1.2, 0.4]]]},
 {"function": "centred_cubes", "points": [[[0.3, -0.5, 0.8, 1.1]], [[1.2, 0.4]]]},
 {"function": "read_only", "points": [[[0.3, -0.5], [0.8, 1.1]]]},
 {"function": "lambda_copy", "points": [[[0.3, -0.5, 0.7]]]},
 {"function": "norms",
  "points": [[[0.3, -0.5, 0.8], 1.5], [[1.0, 2.0, -0.25], -0.7]]}]
*/
