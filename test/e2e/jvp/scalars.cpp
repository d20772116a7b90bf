// Forward mode on scalar code: shared subexpressions, every kind of
// primitive whose partials the table of derivatives gives, branches, a
// ternary, an early return, an integer cast (passive) and a helper (inlined).
#include <unfad/unfad.h>

#include <cmath>

static double softplus(double v) { return std::log1p(std::exp(v)); }

UNFAD_JVP double scalars(double a, double b, double c, int mode) {
  const double s = std::sin(a) * std::cos(b) + a / (1.0 + b * b);
  double t = std::exp(0.5 * a) - std::pow(std::fabs(c) + 1.0, b) + std::atan2(a, c);
  if (mode > 1) t *= std::tanh(c);
  else if (mode < 0) return s - t;
  t += a > b ? std::sqrt(a * a + 1.0) : std::hypot(b, c);
  const double u = std::fmax(s, t) + std::fmin(a, c) + softplus(c - a);
  const int whole = static_cast<int>(std::floor(u)); // passive: no tangent
  return u * s + whole * 0.5 + std::erf(b) + std::cbrt(c + 2.0);
}

UNFAD_GRADIENT double scalars_rev(double a, double b, double c, int mode) { return scalars(a, b, c, mode); }

/* jvp
{"function": "scalars", "gradient": "scalars_rev",
 "params": [["a", "scalar"], ["b", "scalar"], ["c", "scalar"], ["mode", "int"]],
 "points": [[0.3, 0.7, -1.2, 0], [1.5, -0.4, 0.8, 2], [-0.6, 0.9, 1.7, -1], [2.0, 1.0, 0.5, 1]]}
*/
