// Helpers taking a std::vector or a std::array by value (a copy they may
// change as their own): each call copies the argument into a fresh array
// first, so the caller's array is unchanged after the call and its
// adjoint gets the copy's. Also in a loop, the same array passed twice, and
// a constructor's sink parameter (`Poly(std::vector<double> c) :
// c_(std::move(c))`).
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

/* e2e
[{"function": "fit",
  "points": [[[0.5, -1.0, 0.25], [0.3, -0.7, 1.1]], [[2.0, 0.5], [1.5]]]},
 {"function": "variance_mix",
  "points": [[[0.3, -0.5, 0.8, 1.1]], [[1.2, 0.4]]]},
 {"function": "norms",
  "points": [[[0.3, -0.5, 0.8], 1.5], [[1.0, 2.0, -0.25], -0.7]]}]
*/
