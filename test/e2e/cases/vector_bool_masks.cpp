// std::vector<bool> as masks: a parameter read by index, by range-for and
// in a helper; a local one filled from the data (its elements written
// through the proxy std::vector<bool> hands out) and read back, passed to a
// helper taking `const std::vector<bool>&`; an output of flags written by
// the function. Checked against finite differences (the flags output is
// compiled, not checked: it carries no derivative).
#include <unfad/unfad.h>

#include <cmath>
#include <vector>

static double masked_norm(const std::vector<double>& x, const std::vector<bool>& keep) {
  double s = 0;
  for (std::size_t i = 0; i < x.size(); ++i)
    if (keep[i]) s += x[i] * x[i];
  return std::sqrt(s);
}

UNFAD_GRADIENT double masked(const std::vector<double>& x, const std::vector<bool>& mask) {
  double s = 0;
  for (std::size_t i = 0; i < x.size(); ++i)
    if (mask[i]) s += x[i] * x[i];
  int on = 0;
  for (bool b : mask) on += b ? 1 : 0;
  return s / (1 + on) + masked_norm(x, mask);
}

UNFAD_GRADIENT double clipped(const std::vector<double>& x, double lim) {
  std::vector<bool> inside(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) inside[i] = std::abs(x[i]) < lim;
  double s = 0;
  for (std::size_t i = 0; i < x.size(); ++i) s += inside[i] ? x[i] * x[i] : lim * std::abs(x[i]);
  return s;
}

UNFAD_GRADIENT double local_to_helper(const std::vector<double>& x, double lim) {
  std::vector<bool> big(x.size(), false);
  for (std::size_t i = 0; i < x.size(); ++i) big[i] = x[i] > lim;
  int n = 0;
  for (bool b : big) n += b;
  return masked_norm(x, big) * (1.0 + n);
}

UNFAD_GRADIENT double flags_out(const std::vector<double>& x, std::vector<bool>& active) {
  double s = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    active[i] = x[i] > 0;
    if (active[i]) s += x[i] * x[i];
  }
  return s;
}
/* e2e
[{"function": "masked", "points": [[[0.3, -0.7, 1.1, 0.4], [true, false, true, true]]]},
 {"function": "clipped", "points": [[[0.3, -0.7, 1.1, 0.4], 0.8]]},
 {"function": "local_to_helper", "points": [[[0.3, -0.7, 1.1, 0.4], 0.35]]}]
*/
