// Iterators over std::vector and std::array, written the way the standard
// library's users write loops: `auto it = v.begin()`, a named
// `const_iterator`, `*it`, `it->x`, `it[k]`, `++it, ++wi`, `it += 2`,
// `*it++`, `std::next`/`std::prev`/`std::distance`/`std::advance`, reverse
// iterators (`rbegin()`, `r.base()`), and helpers taking an iterator pair
// (`template <class It> f(It first, It last)`, `f(const double* p, const
// double* end)`), standard algorithms given iterator locals, and
// `std::max_element`/`std::min_element` as iterators (argmax, argmin).
#include <unfad/unfad.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <iterator>
#include <numeric>
#include <vector>

struct Point {
  double x, y;
};

UNFAD_GRADIENT double sum_of_squares(const std::vector<double>& x) {
  double s = 0.0;
  for (auto it = x.begin(); it != x.end(); ++it) s += *it * *it;
  return s;
}

UNFAD_GRADIENT double weighted_sines(const std::vector<double>& x, const std::vector<double>& w) {
  double s = 0.0;
  auto wi = w.cbegin();
  for (std::vector<double>::const_iterator it = x.begin(); it != x.end(); ++it, ++wi) s += *wi * std::sin(*it);
  return s;
}

UNFAD_GRADIENT double cross_terms(const std::vector<Point>& p) {
  double s = 0.0;
  for (auto it = p.begin(); it != p.end(); ++it) s += it->x * it->y + std::exp(0.1 * it->x);
  return s;
}

// in place through an iterator: x is an input and an output
UNFAD_GRADIENT void scale_in_place(std::vector<double>& x, double a) {
  for (auto it = x.begin(); it != x.end(); ++it) *it *= a + *it;
}

UNFAD_GRADIENT double neighbour_diffs(const std::vector<double>& x) {
  double s = 0.0;
  for (auto it = std::next(x.begin()); it != x.end(); ++it) {
    const double d = *it - *std::prev(it);
    s += d * d * double(it - x.begin());
  }
  return s + double(std::distance(x.begin(), x.end()));
}

UNFAD_GRADIENT double pairs_by_two(const std::vector<double>& x) {
  double s = 0.0;
  auto it = x.begin();
  while (it < x.end()) {
    s += std::exp(it[0]) * (it + 1 < x.end() ? it[1] : 1.0);
    it += 2;
  }
  auto second = x.begin();
  std::advance(second, 1);
  return s + *second;
}

UNFAD_GRADIENT double post_increment(const std::vector<double>& x) {
  double s = 0.0;
  auto it = x.cbegin();
  const auto end = x.cend();
  while (it != end) s += std::sin(*it++);
  return s;
}

UNFAD_GRADIENT double horner_reversed(const std::vector<double>& c, double t) {
  double s = 0.0;
  for (auto it = c.rbegin(); it != c.rend(); ++it) s = s * t + *it;  // c[n-1] first
  return s;
}

UNFAD_GRADIENT double reverse_arithmetic(const std::vector<double>& c) {
  double s = 0.0;
  for (auto it = c.rbegin(); it != c.rend(); ++it) s += *it * double(it - c.rbegin()) + it.base()[-1] * 0.5;
  auto r = c.rbegin();
  r += 1;
  return s + r[0] * 3.0 + r[2] * r[1] + (c.rbegin() < r ? 1.0 : 0.0) + *std::make_reverse_iterator(c.end() - 1);
}

UNFAD_GRADIENT double array_reversed(const std::array<double, 4>& c, double t) {
  double s = 0.0;
  for (auto it = c.rbegin(); it != c.rend(); ++it) s = s * t + std::cos(*it);
  return s;
}

template <class It> double sum_sq(It first, It last) {
  double s = 0.0;
  for (; first != last; ++first) s += *first * *first;
  return s;
}

template <class It> double sum_exp(It first, It last) {
  double s = 0.0;
  for (It it = first; it != last; ++it) s += std::exp(*it);
  return s;
}

static double tail_sum(const double* p, const double* end) {
  double s = 0.0;
  while (p != end) s += *p++ * 0.5;
  return s;
}

UNFAD_GRADIENT double range_helpers(const std::vector<double>& x) {
  return sum_sq(x.begin(), x.end()) + sum_exp(x.begin() + 1, x.end()) + tail_sum(x.data() + 1, x.data() + x.size()) +
         sum_sq(x.rbegin(), x.rend() - 1);
}

// standard algorithms given iterator locals
UNFAD_GRADIENT double algorithms_from(const std::vector<double>& x) {
  auto first = std::next(x.begin());
  const auto last = x.end();
  return std::accumulate(first, last, 0.0) * std::inner_product(first, last, x.begin(), 0.5);
}

// an iterator chosen by a condition
UNFAD_GRADIENT double chosen(const std::vector<double>& x, int k) {
  auto it = k > 1 ? x.begin() + 1 : x.begin();
  return *it * x[0] + it[1];
}

// the argmax as an iterator: the position of the first greatest element
UNFAD_GRADIENT double around_the_peak(const std::vector<double>& x, const std::array<double, 4>& w) {
  auto peak = std::max_element(x.begin(), x.end());
  const double left = peak == x.begin() ? 0.0 : *std::prev(peak);
  const auto low = std::min_element(w.begin(), w.end());
  return *peak * left + double(peak - x.begin()) + std::exp(*low) * double(std::distance(w.begin(), low)) +
         double(std::distance(x.begin(), std::min_element(x.begin(), x.end())));
}

/* e2e
[{"function": "sum_of_squares", "points": [[[0.3, -0.5, 0.8, 1.1]], [[2.0]], [[]]]},
 {"function": "weighted_sines", "points": [[[0.3, -0.5, 0.8], [1.5, 0.25, -2.0]]]},
 {"function": "cross_terms", "points": [[[[0.3, -0.5], [0.8, 1.1], [-1.2, 0.4]]]]},
 {"function": "scale_in_place", "inouts": {"x": 3}, "points": [[[0.3, -0.5, 0.8], 1.7]]},
 {"function": "neighbour_diffs", "points": [[[0.3, -0.5, 0.8, 1.1, -0.2]], [[1.0]]]},
 {"function": "pairs_by_two", "points": [[[0.3, -0.5, 0.8, 1.1, -0.2]], [[0.3, -0.5, 0.8, 1.1]]]},
 {"function": "post_increment", "points": [[[0.3, -0.5, 0.8, 1.1]]]},
 {"function": "horner_reversed", "points": [[[0.3, -0.5, 0.8, 1.1], 0.7], [[2.0], 1.5]]},
 {"function": "reverse_arithmetic", "points": [[[0.3, -0.5, 0.8, 1.1]]]},
 {"function": "array_reversed", "points": [[[0.3, -0.5, 0.8, 1.1], 0.7]]},
 {"function": "algorithms_from", "points": [[[0.3, -0.5, 0.8, 1.1]]]},
 {"function": "chosen", "points": [[[0.3, -0.5, 1.8], 2], [[0.3, -0.5, 1.8], 0]]},
 {"function": "around_the_peak", "points": [[[0.3, -0.5, 1.8, 1.1], [0.5, -0.25, 0.75, 2.0]], [[2.5, -0.5, 1.8], [0.5, 0.25, -0.75, 2.0]], [[0.4], [1.0, 2.0, 3.0, 0.5]]]},
 {"function": "range_helpers", "points": [[[0.3, -0.5, 0.8, 1.1]], [[0.4, 0.2]]]}]
*/
