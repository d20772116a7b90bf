// `throw` as numerical code uses it: argument checks at the top of a
// function, a helper that refuses its domain inside a loop, a `switch` whose
// `default` throws (no trailing return), `?:` with a throwing arm, a throw in
// a lambda, an exception class of the user's in a namespace. Each was refused
// before ("exceptions are not supported ('throw' expression)"): f_grad must
// throw the same exception where f does, before writing any adjoint, and
// differentiate as before everywhere else.
#include <unfad/unfad.h>

#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <vector>

UNFAD_GRADIENT double mse(const std::vector<double>& x, const std::vector<double>& y) {
  if (x.size() != y.size()) throw std::invalid_argument("mse: size mismatch");
  if (x.empty()) return 0.0;
  double s = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double d = x[i] - y[i];
    s += d * d;
  }
  return s / x.size();
}

static double safe_log(double p) {
  if (p <= 0) throw std::domain_error("log of a non-positive probability");
  return std::log(p);
}

UNFAD_GRADIENT double neg_log_likelihood(const double* p, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) s -= safe_log(p[i]);
  return s;
}

static double activation(int kind, double x) {
  switch (kind) {
  case 0: return std::tanh(x);
  case 1: return 1.0 / (1.0 + std::exp(-x));
  case 2: return x > 0 ? x : 0.01 * x;
  default: throw std::invalid_argument("unknown activation");
  }
}

UNFAD_GRADIENT double layer(const double* w, const double* x, int n, int kind) {
  double s = 0;
  for (int i = 0; i < n; ++i) s += activation(kind, w[i] * x[i]);
  return s;
}

UNFAD_GRADIENT double weighted_mean(const double* w, const double* x, int n) {
  double s = 0, sw = 0;
  for (int i = 0; i < n; ++i) {
    if (!(w[i] >= 0)) throw std::domain_error("negative weight");
    s += w[i] * x[i];
    sw += w[i];
  }
  return sw > 0 ? s / sw : throw std::domain_error("all weights are zero");
}

namespace geo {
struct DegenerateTriangle : std::runtime_error {
  using std::runtime_error::runtime_error;
};
inline double area(double ax, double ay, double bx, double by, double cx, double cy) {
  const double a = 0.5 * ((bx - ax) * (cy - ay) - (cx - ax) * (by - ay));
  if (std::fabs(a) < 1e-12) throw DegenerateTriangle("zero-area triangle");
  return std::fabs(a);
}
} // namespace geo

// The inverse-area energy of a triangle, with a lambda that checks its input.
UNFAD_GRADIENT double shape_energy(double ax, double ay, double bx, double by) {
  auto checked_sqrt = [](double v) {
    if (v < 0) throw std::domain_error("sqrt of a negative value");
    return std::sqrt(v);
  };
  const double A = geo::area(ax, ay, bx, by, 0.0, 0.0);
  return 1.0 / A + checked_sqrt(ax * ax + ay * ay);
}

// Writes an output, then may throw: f_grad throws before any adjoint is
// written (the output's partial writes are as f leaves them).
UNFAD_GRADIENT void normalize(const double* x, int n, double* out) {
  double s = 0;
  for (int i = 0; i < n; ++i) s += x[i] * x[i];
  if (s == 0) throw std::invalid_argument("cannot normalize a zero vector");
  const double r = 1.0 / std::sqrt(s);
  for (int i = 0; i < n; ++i) out[i] = x[i] * r;
}

// A helper left as a call (recursive: never inlined) that throws, called in
// a loop: its adjoint sweep is not fused into the loop (the first version
// was: d_x[0] was added before cf threw at x[1]).
static double continued_fraction(double x, int depth) {
  if (x < 0) throw std::domain_error("continued_fraction: negative argument");
  if (depth == 0) return 1.0;
  return 1.0 + x / continued_fraction(x, depth - 1);
}

UNFAD_GRADIENT double fraction_sum(const double* x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) s += continued_fraction(x[i], 4);
  return s;
}

// A check after the loop computing what it checks: the loop's adjoint sweep
// (which would otherwise run in the loop, each point's adjoint after its
// value) stays after it, so d_x is untouched when it throws.
UNFAD_GRADIENT double checked_energy(const std::vector<double>& x, double limit) {
  double s = 0;
  for (double v : x) s += v * v;
  if (s > limit) throw std::range_error("energy above limit");
  return 0.5 * s;
}

/* e2e
[{"function": "mse", "points": [[[0.5, -1.25, 2.0], [1.0, 0.5, -0.5]]],
  "throws": [{"at": [[0.5, 1.0], [1.0]], "what": "mse: size mismatch"}]},
 {"function": "neg_log_likelihood", "points": [[[0.2, 0.5, 0.3], 3]],
  "throws": [{"at": [[0.2, -0.5, 0.3], 3], "what": "log of a non-positive probability"}]},
 {"function": "layer", "points": [[[0.5, -1.0, 0.25], [1.5, 0.5, -2.0], 3, 0], [[0.5, -1.0, 0.25], [1.5, 0.5, -2.0], 3, 1],
                                  [[0.5, -1.0, 0.25], [1.5, 0.7, -2.0], 3, 2]],
  "throws": [{"at": [[0.5], [1.5], 1, 7], "what": "unknown activation"}]},
 {"function": "weighted_mean", "points": [[[0.5, 1.0, 2.0], [1.0, -2.0, 0.5], 3]],
  "throws": [{"at": [[0.5, -1.0], [1.0, 2.0], 2], "what": "negative weight"},
             {"at": [[0.0, 0.0], [1.0, 2.0], 2], "what": "all weights are zero"}]},
 {"function": "shape_energy", "points": [[1.0, 0.25, 0.5, 2.0]],
  "throws": [{"at": [1.0, 2.0, 0.5, 1.0], "what": "zero-area triangle"}]},
 {"function": "normalize", "points": [[[0.5, -1.25, 2.0], 3]], "outputs": {"out": 3},
  "throws": [{"at": [[0.0, 0.0], 2], "what": "cannot normalize a zero vector"}]},
 {"function": "fraction_sum", "points": [[[0.5, 1.25, 2.0], 3]],
  "throws": [{"at": [[0.5, -1.0, 2.0], 3], "what": "continued_fraction: negative argument"}]},
 {"function": "checked_energy", "points": [[[0.5, -1.25, 2.0], 10.0]],
  "throws": [{"at": [[3.0, 4.0], 20.0], "what": "energy above limit"}]}]
*/
