// std::optional of a number, as code that may fail returns it: a helper
// returning std::nullopt outside its domain (tested with `if (auto l =
// ...)`, `has_value()`, `!o`, `== std::nullopt`), a running best kept in an
// optional across a loop (`if (!best || d < *best) best = d;`), `value_or`,
// `std::make_optional`, reassignment to std::nullopt, `emplace` and `reset`, and `value()`, which
// throws std::bad_optional_access on an empty optional (f_grad throws it
// where f does). Each was refused before ("type 'std::optional<double>' is
// not supported").
#include <unfad/unfad.h>

#include <cmath>
#include <optional>
#include <vector>

static std::optional<double> safe_log(double x) {
  if (x <= 0) return std::nullopt;
  return std::log(x);
}

UNFAD_GRADIENT double log_or_square(const std::vector<double>& x) {
  double s = 0;
  for (double v : x) {
    if (auto l = safe_log(v)) s += *l * v;
    else s += v * v;
  }
  return s;
}

static std::optional<double> root(double a, double b, bool enabled) {
  if (!enabled) return {};
  const double r = -b / a;
  if (r < 0) return std::nullopt;
  return std::make_optional(std::sqrt(r));
}

UNFAD_GRADIENT double roots(const std::vector<double>& a, const std::vector<double>& b) {
  double s = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const std::optional<double> r = root(a[i], b[i], i % 3 != 2);
    if (r.has_value()) s += r.value() * a[i];
    if (r == std::nullopt) s -= b[i];
    s += 0.5 * r.value_or(b[i]);
  }
  return s;
}

// The nearest point's squared distance, kept in an optional.
UNFAD_GRADIENT double nearest(const std::vector<double>& p, double q, double radius) {
  std::optional<double> best;
  for (double v : p) {
    const double d = (v - q) * (v - q);
    if (d > radius * radius) continue;
    if (!best || d < *best) best = d;
  }
  if (best != std::nullopt && *best > 100) best = std::nullopt;
  return best.value_or(radius * radius);
}

// The same with emplace() and reset().
UNFAD_GRADIENT double nearest_kept(const std::vector<double>& p, double q, double radius) {
  std::optional<double> best;
  for (double v : p) {
    const double d = (v - q) * (v - q);
    if (d > radius * radius) continue;
    if (!best.has_value() || d < *best) best.emplace(d);
  }
  if (best && *best > 100) best.reset();
  return best ? *best : radius * radius;
}

// value() of an empty optional throws, in f and in f_grad.
UNFAD_GRADIENT double strict(const std::vector<double>& x) {
  double s = 0;
  for (double v : x) s += safe_log(v).value() * v;
  return s;
}

// Returned from the arms of a switch.
static std::optional<double> pick(double v, int k) {
  switch (k % 3) {
  case 0: return std::nullopt;
  case 1: return v * v;
  default: return std::sin(v);
  }
}

UNFAD_GRADIENT double picked(const std::vector<double>& x) {
  double s = 0;
  for (std::size_t i = 0; i < x.size(); ++i) s += pick(x[i], static_cast<int>(i)).value_or(x[i]);
  return s;
}

/* e2e
[{"function": "log_or_square", "points": [[[0.5, -1.25, 2.0, -0.75, 3.5]]]},
 {"function": "roots", "points": [[[1.5, -2.0, 0.75, 0.5], [-3.0, 1.0, 2.0, 0.25]]]},
 {"function": "nearest", "points": [[[0.5, -1.25, 2.0, 3.5], 1.75, 1.0], [[0.5, -1.25], 9.0, 1.0],
                                    [[0.5, 30.0], 1.0, 15.0], [[20.0], 8.0, 15.0]]},
 {"function": "nearest_kept", "points": [[[0.5, -1.25, 2.0, 3.5], 1.75, 1.0], [[0.5, -1.25], 9.0, 1.0],
                                         [[20.0], 8.0, 15.0]]},
 {"function": "picked", "points": [[[0.5, -1.25, 2.0, -0.75, 3.0]]]},
 {"function": "strict", "points": [[[0.5, 1.25, 2.0]]],
  "throws": [{"at": [[0.5, -1.0]], "what": "bad optional access"}]}]
*/
