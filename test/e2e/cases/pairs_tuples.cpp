// std::pair and std::tuple as values: make_pair/make_tuple, brace and
// constructor initialisation, .first/.second read and written, std::get<I>
// and std::get<T>, structured bindings (by value, const&, and & of a local),
// std::tie with std::ignore, pair/tuple assignment, helpers returning them
// and taking them by value and by const reference, int and struct elements.
#include <unfad/unfad.h>

#include <cmath>
#include <tuple>
#include <utility>

struct Vec2 {
  double x, y;
};

static std::pair<double, double> minmax_soft(const double *x, int n) {
  double lo = x[0], hi = x[0];
  for (int i = 1; i < n; ++i) {
    lo = std::fmin(lo, x[i]);
    hi = std::fmax(hi, x[i]);
  }
  return std::make_pair(lo, hi);
}

static std::tuple<double, double, int> stats(const double *x, int n) {
  double m = 0;
  for (int i = 0; i < n; ++i) m += x[i];
  m /= n;
  double v = 0;
  for (int i = 0; i < n; ++i) v += (x[i] - m) * (x[i] - m);
  return {m, v / n, n};
}

static double spread(const std::pair<double, double> &p) { return p.second - p.first; }
static double weighted(std::tuple<double, Vec2, int> t) {
  return std::get<0>(t) * std::get<Vec2>(t).x + std::get<1>(t).y * std::get<2>(t);
}

UNFAD_GRADIENT double range(const double *x, int n) {
  auto [lo, hi] = minmax_soft(x, n);
  const auto &[m, v, count] = stats(x, n);
  return hi * lo + spread(minmax_soft(x, n)) * m + std::sqrt(v) * count;
}

UNFAD_GRADIENT double tied(const double *x, int n, double a) {
  double m = 0, v = 0;
  std::tie(m, v, std::ignore) = stats(x, n);
  std::pair<double, int> p{a * m, 2};
  p.first *= v;
  p.second += 1;
  std::pair<double, double> q = p; // converting copy
  q.second = q.first + a * p.second;
  auto t = std::make_tuple(q.first, Vec2{v, a}, 3);
  std::get<0>(t) += std::get<1>(t).y;
  std::tuple<double, Vec2, int> u;
  u = t;
  std::tie(q.first, q.second) = std::make_pair(q.second, q.first); // a swap
  return weighted(u) + q.first * std::get<double>(u) + q.second;
}

UNFAD_GRADIENT double bindings_by_reference(double a, double b) {
  std::pair<double, double> p(a, b);
  auto &[x, y] = p;
  x = x * y;         // writes p.first
  y += std::sin(x);  // writes p.second
  double s = 0;
  for (int i = 0; i < 3; ++i) {
    std::tie(s, std::ignore) = std::make_pair(s + p.first * i, 0.0);
    p = {p.second, p.first + s};
  }
  return s + p.first * p.second + x;
}

// A hand-derived reference as well: f = (2b)^2 + 3a, so df/da = 3, df/db = 8b.
UNFAD_GRADIENT double swapped(double a, double b) {
  auto p = std::make_pair(a, b);
  std::tie(p.first, p.second) = std::make_pair(p.second * 2.0, p.first);
  const auto [u, v] = p;
  return u * u + 3.0 * v;
}

// Bindings of a plain struct are its members; a `const auto&` binding of a
// local pair sees later writes to the pair.
UNFAD_GRADIENT double bindings_alias(double a, double b) {
  Vec2 s{a, b};
  auto [x, y] = s; // a copy
  x *= y;
  s.x = 7.0;
  std::pair<double, double> p(a, b);
  const auto &[first, second] = p;
  p.first = 3.0 * b;
  auto [c, d] = p;
  for (int i = 0; i < 3; ++i) c += d * i;
  return x + s.x * y + first * second + c;
}

/* e2e
[{"function": "bindings_alias",
  "points": [[0.5, 1.25], [-0.75, 0.4]],
  "grad_formula": ["b", "a + 7 + 6*b + 6"]},
 {"function": "swapped",
  "points": [[0.5, 1.25], [-0.75, 0.4]],
  "grad_formula": ["3", "8*b"]},
 {"function": "range",
  "points": [[[0.5, -1.25, 2.0, 0.75], 4], [[1.5, 0.25, -0.5], 3]]},
 {"function": "tied",
  "points": [[[0.5, -1.25, 2.0, 0.75], 4, 0.7], [[1.5, 0.25, -0.5], 3, -1.3]]},
 {"function": "bindings_by_reference",
  "points": [[0.5, 1.25], [-0.75, 0.4]]}]
*/
