// std::function as numerical helpers take callables: a quadrature rule, an
// ODE stepper and a fixed-point solver taking `const std::function<...>&`
// or a std::function by value, given a lambda (capturing by reference and
// by value), a local std::function, a function's name, a functor, or the
// std::function parameter of the caller (forwarded), tested (`if (!g)`:
// set, as it is built from a callable); a std::function given
// to std::accumulate; a lambda writing a captured accumulator through the
// std::function. Refused before ("type 'std::function<double (double)>' is
// not supported"): a bug report from trying code as it is written.
#include <unfad/unfad.h>

#include <cmath>
#include <functional>
#include <numeric>
#include <vector>

// Composite Simpson's rule.
double simpson(const std::function<double(double)>& g, double a, double b, int n) {
  const double h = (b - a) / n;
  double s = g(a) + g(b);
  for (int i = 1; i < n; ++i) s += (i % 2 ? 4.0 : 2.0) * g(a + i * h);
  return s * h / 3.0;
}

UNFAD_GRADIENT double damped_integral(double k, double w) {
  return simpson([&](double t) { return std::exp(-k * t) * std::cos(w * t); }, 0.0, 2.0, 20);
}

// Explicit Euler steps of y' = rhs(t, y), taken by value; the callable
// forwarded from another helper's parameter.
double euler(std::function<double(double, double)> rhs, double y0, double dt, int steps) {
  double y = y0;
  for (int s = 0; s < steps; ++s) y += dt * rhs(s * dt, y);
  return y;
}
double settle(const std::function<double(double, double)>& rhs, double y0) { return euler(rhs, y0, 0.05, 30); }

double logistic_rhs(double t, double y) { return y * (1.0 - y) + 0.1 * std::sin(t); }

struct Decay {
  double rate;
  double operator()(double t, double y) const { return -rate * y + std::cos(t); }
};

UNFAD_GRADIENT double trajectories(double y0, double rate) {
  const double a = settle(logistic_rhs, y0);                     // a function's name
  const double b = euler(Decay{rate}, y0, 0.1, 10);              // a functor
  std::function<double(double, double)> forced = [rate](double t, double y) { return -rate * y * y + t; };
  const double c = settle(forced, 0.5 * y0);                    // a local, by value capture
  std::function<double(double, double)> named = logistic_rhs;   // a local holding a function
  return a + b * c + forced(0.5, y0) + named(0.1, y0 * rate);    // both called where they were made
}

// A fixed point x = g(x), iterated a fixed number of times.
double fixed_point(const std::function<double(double)>& g, double x0, int iters) {
  if (!g) return x0;
  double x = x0;
  for (int i = 0; i < iters; ++i) x = g(x);
  return x;
}

UNFAD_GRADIENT double kepler(double mean_anomaly, double e) {
  // E = M + e sin E
  return fixed_point([&](double E) { return mean_anomaly + e * std::sin(E); }, mean_anomaly, 25);
}

// A std::function given to std::accumulate, and a lambda counting its calls
// into a captured variable (the adjoint of a captured variable sums over calls).
double fold(const std::vector<double>& v, const std::function<double(double, double)>& op) {
  return std::accumulate(v.begin(), v.end(), 0.0, op);
}

UNFAD_GRADIENT double softplus_sum(const std::vector<double>& v, double beta) {
  double weight = 1.0;
  std::function<double(double, double)> op = [&](double acc, double x) {
    weight *= 0.9;
    return acc + weight * std::log1p(std::exp(beta * x)) / beta;
  };
  return fold(v, op) + weight;
}

/* e2e
[{"function": "damped_integral", "points": [[0.7, 1.3], [2.0, 0.25]]},
 {"function": "trajectories", "points": [[0.3, 0.8], [0.6, 1.5]]},
 {"function": "kepler", "points": [[1.2, 0.3], [0.4, 0.1]]},
 {"function": "softplus_sum", "points": [[[0.5, -1.25, 2.0, 0.3], 1.5], [[1.5], 0.5]]}]
*/
