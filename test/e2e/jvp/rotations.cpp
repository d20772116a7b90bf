// Forward mode through rotations, where a tangent needs a value the primal
// computes only later (cos' = -sin before `s = sin(t)`): the shared sin/cos
// must keep both the value and the tangent right, also when the sharing
// crosses into a loop body and a branch.
#include <unfad/unfad.h>

#include <cmath>

UNFAD_JVP double rotations(const double* angles, const double* p, int n, double scale) {
  double x = p[0], y = p[1], acc = 0.0;
  for (int i = 0; i < n; ++i) {
    const double c = std::cos(angles[i] * scale);
    const double s = std::sin(angles[i] * scale);
    const double xr = c * x - s * y;
    y = s * x + c * y;
    x = xr;
    if (x > 0) acc += std::exp(-std::sin(angles[i] * scale) * x);
    else acc += std::sqrt(1.0 + x * x) * std::cos(angles[i] * scale);
  }
  const double ct = std::cos(scale), st = std::sin(scale);
  return acc + ct * x * x - st * y + std::log(1.0 + st * st);
}

UNFAD_GRADIENT double rotations_rev(const double* angles, const double* p, int n, double scale) {
  return rotations(angles, p, n, scale);
}

/* jvp
{"function": "rotations", "gradient": "rotations_rev",
 "params": [["angles", "in", 4], ["p", "in", 2], ["n", "int"], ["scale", "scalar"]],
 "points": [[[0.3, -1.1, 2.0, 0.7], [0.5, -0.2], 4, 0.9], [[1.3, 0.4, -0.6, 2.2], [-1.0, 0.3], 3, -0.4]]}
*/
