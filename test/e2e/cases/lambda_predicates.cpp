// Lambdas that write nothing, called where no statement can go before them
// (an operand of ?:, &&, ||, a loop condition), and the predicate
// algorithms std::count_if, std::any_of, std::all_of, std::none_of over
// arrays with lambdas (passive results steering the computation).
#include <unfad/unfad.h>

#include <algorithm>
#include <cmath>
#include <vector>

UNFAD_GRADIENT double clipped_energy(const std::vector<double>& x, double limit) {
  const auto big = [limit](double v) { return std::fabs(v) > limit; };
  const auto energy = [](double v) { return 0.5 * v * v; };
  double e = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i) e += big(x[i]) ? limit * std::fabs(x[i]) : energy(x[i]);
  // in a loop condition: halve until small
  double s = x[0];
  while (big(s) && std::fabs(s) > 1e-3) s *= 0.5;
  return e + (energy(s) > 0.1 || big(x[1]) ? s : 2.0 * s);
}

UNFAD_GRADIENT double positive_mean(const std::vector<double>& x, double shift) {
  const auto positive = [shift](double v) { return v + shift > 0.0; };
  const long n = std::count_if(x.begin(), x.end(), positive);
  double s = 0.0;
  for (double v : x)
    if (positive(v)) s += v + shift;
  const bool any_large = std::any_of(x.begin(), x.end(), [](double v) { return v > 10.0; });
  const bool all_small = std::all_of(x.begin(), x.end(), [](double v) { return std::fabs(v) < 5.0; });
  const bool none_negative = std::none_of(x.begin(), x.end(), [](double v) { return v < 0.0; });
  const double scale = (any_large ? 0.5 : 1.0) * (all_small ? 2.0 : 1.0) * (none_negative ? 3.0 : 1.0);
  return scale * s / static_cast<double>(n > 0 ? n : 1);
}

/* e2e
[{"function": "clipped_energy",
  "points": [[[0.5, -3.0, 1.5, 0.25], 1.0], [[5.0, 0.3, -0.7], 2.0]]},
 {"function": "positive_mean",
  "points": [[[1.0, -2.0, 3.0, 0.5], 0.25], [[11.0, 2.0, 4.0], -1.0], [[1.5, 2.5], 0.5]],
  "value_formula": "(0.5 if max(x) > 10 else 1.0) * (2.0 if max(abs(v) for v in x) < 5 else 1.0) * (3.0 if min(x) >= 0 else 1.0) * sum(v + shift for v in x if v + shift > 0) / max(1, sum(1 for v in x if v + shift > 0))"}]
*/
