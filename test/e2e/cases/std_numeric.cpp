// More of the standard library as numeric code uses it: std::partial_sum
// and std::adjacent_difference (into another array and in place),
// std::reduce, std::reverse (of a parameter, in place), std::min/std::max of
// an initializer list, std::array's fill, std::iota, range-based for over
// pairs with structured bindings (by value, by const reference, and by
// reference, writing), std::isnan and the like of active values,
// std::replace/std::replace_if, std::find/std::find_if/std::find_if_not. Each was refused before (bug reports from
// trying code as it is written).
#include <unfad/unfad.h>

#include <algorithm>
#include <cassert>
#include <array>
#include <cmath>
#include <numeric>
#include <utility>
#include <vector>

// A cumulative sum and first differences, then their products.
UNFAD_GRADIENT double running(const std::vector<double>& a) {
  std::vector<double> c(a.size()), d(a.size());
  std::partial_sum(a.begin(), a.end(), c.begin());
  std::adjacent_difference(a.begin(), a.end(), d.begin());
  double s = 0.0;
  for (size_t i = 0; i < c.size(); ++i) s += c[i] * d[i] + std::sin(c[i]);
  return s;
}

// In place: differences of a copy, then its running sum (back to the copy).
UNFAD_GRADIENT double in_place(const double* x, int n) {
  std::vector<double> v(x, x + n);
  std::adjacent_difference(v.begin(), v.end(), v.begin());
  double s = 0.0;
  for (double t : v) s += t * t;
  std::partial_sum(v.begin(), v.end(), v.begin());
  return s + std::exp(0.1 * v[n - 1]) * v[0];
}

// std::reduce with and without an initial value, after std::reverse of the
// parameter itself (in/out).
UNFAD_GRADIENT double reversed(std::vector<double>& v) {
  std::reverse(v.begin(), v.end());
  double s = std::reduce(v.begin(), v.end()) * std::reduce(v.begin() + 1, v.end(), 0.5);
  for (size_t i = 0; i < v.size(); ++i) s += (i + 1.0) * v[i];
  return s;
}

// std::min / std::max of lists, std::array::fill, std::iota.
UNFAD_GRADIENT double lists(double a, double b, double c) {
  std::array<double, 3> w;
  w.fill(a * b);
  w[1] += c;
  std::array<double, 4> g;
  std::iota(g.begin(), g.end(), c);
  return std::min({a, b * c, 0.25}) + std::max({a * b, c, -2.0}) + w[0] * w[1] + g[3] * g[2];
}

// Range-based for over pairs: `auto [x, y]`, `const auto& [x, y]`, and
// `auto& [x, y]` writing the pairs' members.
UNFAD_GRADIENT double pair_loops(const double* x, int n) {
  std::vector<std::pair<double, double>> ps;
  for (int i = 0; i + 1 < n; ++i) ps.push_back({x[i], x[i + 1]});
  double s = 0.0;
  for (auto [p, q] : ps) s += p * q;
  for (auto& [p, q] : ps) {
    p *= 2.0;
    q = std::cos(q);
  }
  for (const auto& [p, q] : ps) s += std::exp(p - q);
  return s;
}

// Library predicates and integer-valued functions of active values
// (std::isnan, std::isfinite, std::signbit, std::lround; they were followed
// into libstdc++'s bodies and refused at __builtin_isnan), and an assert.
UNFAD_GRADIENT double guarded(const std::vector<double>& x, double s) {
  assert(!x.empty() && s > 0.0);
  double r = 0.0;
  for (double v : x) {
    if (std::isnan(v) || !std::isfinite(v)) continue;
    const double sign = std::signbit(v) ? -1.0 : 1.0;
    r += sign * std::log1p(v * v / s) + static_cast<double>(std::lround(2.0 * v)) * v;
  }
  return r;
}

// std::replace (a sentinel the function set itself, so that finite
// differences see the same replacement; the old value read at each element,
// as the library's reference is), std::replace_if, and std::find /
// std::find_if / std::find_if_not as iterators (`last` when nothing matches).
UNFAD_GRADIENT double replaced(std::vector<double> v, double c) {
  v[1] = 0.0;
  std::replace(v.begin(), v.end(), 0.0, c);
  std::replace(v.begin(), v.end(), v[0], 2.0 * c); // (v[0] itself is replaced first: then 2c is compared)
  std::replace_if(v.begin(), v.end(), [c](double t) { return t < -c; }, 0.5 * c);
  auto big = std::find_if(v.begin(), v.end(), [](double t) { return t > 1.0; });
  auto neg = std::find_if_not(v.begin(), v.end(), [](double t) { return t > 0.0; });
  auto none = std::find(v.begin(), v.end(), 123.0);
  const double b = big != v.end() ? *big : 0.0;
  const double m = neg != v.end() ? *neg : 1.0;
  return b * b + std::sin(m) + (none == v.end() ? v[2] : 0.0) + v[0] * v[1] + v[3];
}

/* e2e
[{"function": "running", "points": [[[0.5, -1.25, 2.0, 0.3]], [[1.5]]]},
 {"function": "in_place", "points": [[[0.5, -1.25, 2.0, 0.3], 4], [[1.5, 0.25, -0.75], 3]]},
 {"function": "reversed", "inouts": {"v": 4}, "points": [[[0.5, -1.25, 2.0, 0.3]]]},
 {"function": "lists", "points": [[0.5, -1.25, 2.0], [1.5, 0.4, 0.1], [-0.5, 2.0, 0.75]]},
 {"function": "pair_loops", "points": [[[0.5, -1.25, 2.0, 0.3], 4], [[1.5, 0.25], 2]]},
 {"function": "guarded", "points": [[[0.6, -1.3, 2.1, 0.3], 1.5]]},
 {"function": "replaced", "points": [[[0.6, 5.0, -1.3, 2.1, 0.3], 0.75], [[-2.5, 1.0, 0.4, -0.1], 1.25]]}]
*/
