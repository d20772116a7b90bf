// std::minmax_element (and std::minmax of a list, of two variables) as C++
// programmers use it: the pair kept whole
// (`mm.first`, `mm.second`), taken apart by a structured binding, with a
// comparator, over a std::array (a pair of pointers) and a sub-range, and
// the positions used as indices (`std::distance`, `it - v.begin()`).
// Checked against finite differences, away from ties.
#include <unfad/unfad.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <iterator>
#include <vector>

// The range of the data, scaled by the first value.
UNFAD_GRADIENT double spread(const std::vector<double>& x) {
  const auto mm = std::minmax_element(x.begin(), x.end());
  return (*mm.second - *mm.first) * x[0];
}

// Min-max normalisation of the last element, with the extremes' positions.
UNFAD_GRADIENT double normalized_last(const std::vector<double>& x) {
  auto [lo, hi] = std::minmax_element(x.begin(), x.end());
  const long ilo = std::distance(x.begin(), lo);
  const long ihi = hi - x.begin();
  return (x.back() - *lo) / (*hi - *lo) + 0.1 * static_cast<double>(ihi - ilo);
}

// The smallest and the largest magnitude, by a comparator, over a std::array.
UNFAD_GRADIENT double magnitudes(const std::array<double, 5>& v) {
  const auto [small, big] =
      std::minmax_element(v.begin(), v.end(), [](double a, double b) { return std::abs(a) < std::abs(b); });
  return *big * *big - std::sin(*small);
}

// The extremes of the interior of a sequence (a sub-range).
UNFAD_GRADIENT double interior(const std::vector<double>& x, double w) {
  const auto [lo, hi] = std::minmax_element(x.begin() + 1, x.end() - 1);
  return w * *hi + (1 - w) * *lo + x.front() * x.back();
}
// Ties among integer keys: the first smallest and the last largest, as the
// library returns them (f_grad's value must equal f's).
UNFAD_GRADIENT double tied(const std::vector<int>& k, double w) {
  const auto [lo, hi] = std::minmax_element(k.begin(), k.end());
  return w * static_cast<double>(10 * (hi - k.begin()) + (lo - k.begin())) + w * w * *hi;
}
// std::minmax of a list of values: a pair, bound and kept whole.
UNFAD_GRADIENT double listed(double a, double b, double c) {
  const auto [lo, hi] = std::minmax({a * b, b, c});
  const auto mm = std::minmax({a, c});
  return hi - 2 * lo + mm.first * mm.second + std::max({a, b, c}) * std::min({a, b});
}
// std::minmax of two variables: a pair of references to them, chosen when
// the pair is made, reading the variables as they are when read.
UNFAD_GRADIENT double ordered(double a, double b, double c) {
  double p = a * a, q = b + c;
  const auto [lo, hi] = std::minmax(p, q);
  const auto mm = std::minmax(a, c);
  const double before = hi - 2 * lo + mm.first * std::exp(mm.second);
  p *= 3.0; // lo or hi designates p: it reads 3 p now
  return before + lo * hi;
}
/* e2e
[{"function": "spread", "points": [[[0.3, -1.2, 2.0, 0.5]], [[-0.4, 0.9, 0.1]]]},
 {"function": "normalized_last", "points": [[[0.3, -1.2, 2.0, 0.5]], [[1.5, 0.2, -0.7, 0.9]]]},
 {"function": "magnitudes", "points": [[[0.3, -1.2, 2.5, 0.5, -0.9]]]},
 {"function": "tied", "points": [[[3, 1, 7, 1, 7, 2], 0.5]]},
 {"function": "listed", "points": [[0.7, 2.0, -1.0], [3.0, 0.5, 1.0]]},
 {"function": "ordered", "points": [[0.7, 2.0, -1.0], [3.0, 0.5, 1.0]]},
 {"function": "interior", "points": [[[5.0, -1.2, 2.0, 0.5, -3.0], 0.3]]}]
*/
