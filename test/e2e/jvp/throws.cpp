// Forward mode of argument checks as written: a size check on entry (its
// message reads n) and a helper that throws on its domain inside the loop.
// f_jvp throws where f throws (the same type and what()), and elsewhere its
// tangent matches finite differences and reverse mode.
#include <unfad/unfad.h>

#include <cmath>
#include <stdexcept>
#include <string>

static double safe_log(double v) {
  if (v <= 0) throw std::domain_error("safe_log: not positive");
  return std::log(v);
}

UNFAD_JVP double throws(const double* x, int n, double scale) {
  if (n < 2) throw std::invalid_argument("throws: need two points, got " + std::to_string(n));
  double s = 0;
  for (int i = 0; i < n; ++i) s += safe_log(scale * x[i]) * x[i];
  return s / n;
}

UNFAD_GRADIENT double throws_rev(const double* x, int n, double scale) { return throws(x, n, scale); }

/* jvp
{"function": "throws", "gradient": "throws_rev",
 "params": [["x", "in", 3], ["n", "int"], ["scale", "scalar"]],
 "points": [[[0.5, 1.5, 2.25], 3, 1.25], [[3.0, 0.2, 0.7], 3, 0.5]],
 "throws": [{"at": [[0.5, 1.5, 2.25], 1, 1.0], "what": "throws: need two points, got 1"},
            {"at": [[0.5, -1.5, 2.25], 3, 1.0], "what": "safe_log: not positive"}]}
*/
