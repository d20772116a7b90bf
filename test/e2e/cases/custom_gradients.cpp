// Derivatives the user supplies (UNFAD_CUSTOM_GRADIENT): a numerically
// stable softplus with its own pullback, called in a loop and from a helper;
// a log-gamma wrapper whose body unfad never sees (a library function) with
// a digamma derivative; an array argument (a pointer and a std::vector);
// a struct argument; an overload and a template specialisation named by
// their types; a function in a namespace. The gradients are checked
// against finite differences, so each pullback must be right.
#include <unfad/unfad.h>

#include <cmath>
#include <vector>

// log(1 + exp(x)) without overflow; its derivative is the logistic function.
double log1pexp(double x) { return x > 0.0 ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x)); }
void log1pexp_pullback(double x, double d_result, double* d_x) { *d_x += d_result / (1.0 + std::exp(-x)); }
UNFAD_CUSTOM_GRADIENT(log1pexp, log1pexp_pullback);

// A library function: unfad parses this file with __UNFAD__ defined and
// sees only the declaration.
double log_gamma(double x);
#ifndef __UNFAD__
double log_gamma(double x) { return std::lgamma(x); }
#endif
// digamma(x) by the recurrence up to x >= 6, then the asymptotic series.
double digamma(double x) {
  double shift = 0.0;
  for (; x < 6.0; x += 1.0) shift -= 1.0 / x;
  const double r = 1.0 / (x * x);
  return shift + std::log(x) - 0.5 / x - r * (1.0 / 12 - r * (1.0 / 120 - r * (1.0 / 252 - r * (1.0 / 240 - r / 132))));
}
void log_gamma_pullback(double x, double d_result, double* d_x) { *d_x += d_result * digamma(x); }
UNFAD_CUSTOM_GRADIENT(log_gamma, log_gamma_pullback);

// An array argument: the pullback adds into the adjoint array.
double sum_squares(const double* v, int n) {
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += v[i] * v[i];
  return s;
}
void sum_squares_pullback(const double* v, int n, double d_result, double* d_v) {
  for (int i = 0; i < n; ++i) d_v[i] += 2.0 * v[i] * d_result;
}
UNFAD_CUSTOM_GRADIENT(sum_squares, sum_squares_pullback);

double mean(const std::vector<double>& v) {
  double s = 0.0;
  for (double e : v) s += e;
  return s / static_cast<double>(v.size());
}
void mean_pullback(const std::vector<double>& v, double d_result, std::vector<double>& d_v) {
  for (std::size_t i = 0; i < v.size(); ++i) d_v[i] += d_result / static_cast<double>(v.size());
}
UNFAD_CUSTOM_GRADIENT(mean, mean_pullback);

struct Vec2 {
  double x, y;
};
double length(const Vec2& p) { return std::hypot(p.x, p.y); }
void length_pullback(const Vec2& p, double d_result, Vec2* d_p) {
  const double r = std::hypot(p.x, p.y);
  d_p->x += d_result * p.x / r;
  d_p->y += d_result * p.y / r;
}
UNFAD_CUSTOM_GRADIENT(length, length_pullback);

// An overload (one of two) and a template specialisation.
double cube(double x) { return x * x * x; }
float cube(float x) { return x * x * x; }
void cube_pullback(double x, double d_result, double* d_x) { *d_x += 3.0 * x * x * d_result; }
UNFAD_CUSTOM_GRADIENT(static_cast<double (*)(double)>(cube), cube_pullback);

namespace geo {
template <class T> T sq(T x) { return x * x; }
template <class T> void sq_pullback(T x, T d_result, T* d_x) { *d_x += 2 * x * d_result; }
UNFAD_CUSTOM_GRADIENT(sq<double>, sq_pullback<double>);
} // namespace geo

// A helper calling the custom function: its generated pullback calls the
// user's.
static double softplus_margin(double w, double x, double b) { return log1pexp(-(w * x + b)); }

UNFAD_GRADIENT double logistic_loss(const double* w, const double* x, const double* y, int n, double b) {
  double loss = 0.0;
  for (int i = 0; i < n; ++i) loss += log1pexp(-y[i] * (w[i] * x[i] + b));
  return loss + softplus_margin(w[0], x[0], b);
}

UNFAD_GRADIENT double beta_log_density(double a, double b, double t) {
  return log_gamma(a + b) - log_gamma(a) - log_gamma(b) + (a - 1.0) * std::log(t) + (b - 1.0) * std::log(1.0 - t);
}

UNFAD_GRADIENT double shapes(const std::vector<double>& v, double px, double py, double s) {
  const Vec2 p{px * s, py};
  return sum_squares(v.data(), static_cast<int>(v.size())) * mean(v) + length(p) + cube(s) + geo::sq(px - s);
}

/* e2e
[{"function": "logistic_loss",
  "points": [[[0.5, -1.0, 2.0], [1.0, 0.5, -0.25], [1.0, -1.0, 1.0], 3, 0.25],
             [[40.0, -1.5, 0.3], [1.5, 2.0, -1.0], [-1.0, 1.0, 1.0], 3, -0.5]],
  "value_formula": "sum(log1p(exp(-y[i]*(w[i]*x[i] + b))) for i in range(n)) + log1p(exp(-(w[0]*x[0] + b)))"},
 {"function": "beta_log_density",
  "points": [[2.5, 3.0, 0.4], [0.75, 1.5, 0.8], [12.0, 7.5, 0.6]],
  "value_formula": "lgamma(a + b) - lgamma(a) - lgamma(b) + (a - 1)*log(t) + (b - 1)*log(1 - t)"},
 {"function": "shapes",
  "points": [[[1.0, -2.0, 0.5], 0.75, -1.25, 1.5], [[0.3, 0.6], -2.0, 0.5, -0.75]],
  "value_formula": "sum(e*e for e in v) * sum(v)/len(v) + hypot(px*s, py) + s**3 + (px - s)**2"}]
*/
