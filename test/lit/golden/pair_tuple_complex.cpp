// std::pair, std::tuple and std::complex<double> in generated code are spelled as the user wrote
// them: a helper returning a pair or tuple has a pullback taking its adjoint as a value of the
// same type (`std::pair<double, double> d_return`, read as `d_return.first`, `std::get<1>(d_return)`),
// a structured binding's hidden object is named after its bindings (`lo_hi`), and a complex is
// built as `std::complex<double>{re, im}`, read with `.real()`/`.imag()`, its adjoint a complex too.
// RUN: %unfad %s -- -std=c++17 -I%unfad_include > %t.out
// RUN: grep -v '^// *[A-Z-]*:' %t.out | FileCheck %s
#include <unfad/unfad.h>

#include <cmath>
#include <complex>
#include <tuple>
#include <utility>

static std::pair<double, double> extremes(const double* x, int n) {
  double lo = x[0], hi = x[0];
  for (int i = 1; i < n; ++i) {
    lo = std::fmin(lo, x[i]);
    hi = std::fmax(hi, x[i]);
  }
  return {lo, hi};
}

static double width(const std::pair<double, double>& p) { return p.second - p.first; }

UNFAD_GRADIENT double spread(const double* x, int n) {
  auto [lo, hi] = extremes(x, n);
  return hi * lo + width(extremes(x, n));
}
// CHECK-LABEL: void extremes_pullback(const double* x, int n, std::pair<double, double> d_return, double* d_x) {
// CHECK:         = d_return.first;
// CHECK:         = d_return.second;
// CHECK-LABEL: double spread_grad(const double* x, int n, double* d_x) {
// CHECK-NEXT:    const std::pair<double, double> lo_hi = ::extremes(x, n);
// CHECK:         extremes_pullback(x, n, std::pair<double, double>{{[{].*[}]}}, d_x);

static std::tuple<double, double, int> stats(const double* x, int n) {
  double m = 0;
  for (int i = 0; i < n; ++i) m += x[i];
  m /= n;
  double v = 0;
  for (int i = 0; i < n; ++i) v += (x[i] - m) * (x[i] - m);
  return {m, v / n, n};
}

UNFAD_GRADIENT double score(const double* x, int n) {
  double m, v;
  std::tie(m, v, std::ignore) = stats(x, n);
  auto t = stats(x, n);
  return m * std::sqrt(v) + std::get<0>(t) * std::get<2>(t);
}
// CHECK-LABEL: void stats_pullback(const double* x, int n, std::tuple<double, double, int> d_return, double* d_x) {
// CHECK:         std::get<1>(d_return)
// CHECK-LABEL: double score_grad(const double* x, int n, double* d_x) {
// CHECK-NEXT:    const std::tuple<double, double, int> tied = ::stats(x, n);
// CHECK-NEXT:    const double t = std::sqrt(std::get<1>(tied));
// CHECK:         stats_pullback(x, n, std::tuple<double, double, int>{{[{].*[}]}}, d_x);

static std::complex<double> orbit(std::complex<double> z, const std::complex<double>& c, int steps) {
  for (int i = 0; i < steps; ++i) z = z * z + c;
  return z;
}

UNFAD_GRADIENT double escape(double re, double im) {
  const std::complex<double> c{re, im};
  std::complex<double> z = orbit(c, c, 3);
  return std::abs(z);
}
// CHECK-LABEL: double escape_grad(double re, double im, double* d_re, double* d_im) {
// CHECK:         std::complex<double> [[Z:[a-z_0-9]+]]{re, im};
// CHECK:         for (long [[I:[a-z_0-9]+]] = 0; [[I]] < 3; ++[[I]]) {
// CHECK:           [[Z]] = std::complex<double>{{[{]}}{{.*}} + re, {{.*}} + im};
// CHECK:         std::hypot([[Z]].real(), [[Z]].imag());
// CHECK:         std::complex<double> [[DZ:d_[a-z_0-9]+]] =
// CHECK:           [[DZ]] = std::complex<double>{{[{]}}
// CHECK:         *d_re += {{.*}}.real(){{.*}};
// CHECK:         *d_im += {{.*}}.imag(){{.*}};

// A marked function's parameters of these types: the adjoint is a pointer to a value of the
// same type, added into member by member (a complex one whole).
UNFAD_GRADIENT double params(const std::pair<double, double>& p, std::tuple<double, int> t, std::complex<double> z) {
  return p.first * p.second + std::get<0>(t) * std::get<1>(t) + std::norm(z);
}
// CHECK-LABEL: double params_grad(const std::pair<double, double>& p, std::tuple<double, int> t, std::complex<double> z, std::pair<double, double>* d_p, std::tuple<double, int>* d_t, std::complex<double>* d_z) {
// CHECK-DAG:     d_p->first += p.second;
// CHECK-DAG:     d_p->second += p.first;
// CHECK-DAG:     std::get<0>(*d_t) += {{[a-z_0-9]+}};
// CHECK-DAG:     *d_z += std::complex<double>{{[{]}}2.0 * z.real(), 2.0 * z.imag()};
