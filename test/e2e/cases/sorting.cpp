// Sorting ranges of numbers (lib/frontend/sorting.cpp): std::sort,
// std::nth_element, ascending or with std::greater, of a
// local copy, a parameter updated in place, part of an array, in a loop.
// A sort moves values, so each partial derivative follows its value to its
// new place; the points have no ties (the order is locally constant there,
// and finite differences see the same permutation).
#include <unfad/unfad.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <vector>

// The mean of the values left after dropping the k smallest and k largest.
UNFAD_GRADIENT double trimmed_mean(const double* x, int n, int k) {
  std::vector<double> v(x, x + n);
  std::sort(v.begin(), v.end());
  double s = 0.0;
  for (int i = k; i < n - k; ++i) s += v[i];
  return s / (n - 2 * k);
}

// The median (odd n) by std::nth_element, then a smooth function of it.
UNFAD_GRADIENT double median_loss(const std::vector<double>& r) {
  std::vector<double> a = r;
  const size_t mid = a.size() / 2;
  std::nth_element(a.begin(), a.begin() + mid, a.end());
  const double m = a[mid];
  double s = 0.0;
  for (double v : r) s += std::log(1.0 + (v - m) * (v - m));
  return s + m * m;
}

// An ordered weighted average: the largest value weighted most.
UNFAD_GRADIENT double owa(const double* x, const double* w, int n) {
  double buf[8];
  for (int i = 0; i < n; ++i) buf[i] = std::exp(0.5 * x[i]);
  std::sort(buf, buf + n, std::greater<double>());
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += w[i] * buf[i];
  return s;
}

// A parameter sorted in place (in/out), apart from its first and last
// element, with std::greater<>. (std::stable_sort is in the golden test
// test/lit/golden/sorting.cpp and unfad.h's permutation in
// test/unit/runtime_test.cpp: clang++ -Werror rejects libstdc++ 12's
// std::stable_sort itself, for its deprecated get_temporary_buffer.)
UNFAD_GRADIENT double sort_middle(std::vector<double>& y) {
  std::sort(y.begin() + 1, y.end() - 1, std::greater<>());
  double s = 0.0;
  for (size_t i = 0; i < y.size(); ++i) s += (i + 1.0) * y[i] * y[i];
  return s;
}

// A buffer re-sorted at every step of a loop, its values updated in between.
UNFAD_GRADIENT double sorted_steps(const double* x, int n, int steps) {
  std::vector<double> b(x, x + n);
  double acc = 0.0;
  for (int t = 0; t < steps; ++t) {
    std::sort(b.begin(), b.end());
    acc += b[0] * b[n - 1] + std::sin(b[n / 2]);
    for (int i = 0; i < n; ++i) b[i] = b[i] * 0.9 + 0.3 * std::cos(b[(i + 1) % n] + t);
  }
  return acc;
}

// Integers sorted (passive): positions ordered by a key, used as indices.
UNFAD_GRADIENT double by_rank(const double* x, const int* keys, int n) {
  std::vector<int> order(keys, keys + n);
  std::sort(order.begin(), order.end());
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += (i + 1) * x[order[i]];
  return s;
}

// The three smallest by std::partial_sort, weighted; the rest, left in the
// order the algorithm leaves it, weighted too (the same arrangement as the
// user's call: the gradient runs the same comparisons).
UNFAD_GRADIENT double smallest_three(const std::vector<double>& x) {
  std::vector<double> c(x);
  std::partial_sort(c.begin(), c.begin() + 3, c.end());
  double rest = 0.0;
  for (size_t i = 3; i < c.size(); ++i) rest += (i + 1.0) * c[i] * c[i];
  return c[0] + 2 * c[1] * c[1] + 3 * std::sin(c[2]) + 0.1 * rest;
}

/* e2e
[{"function": "trimmed_mean", "points": [[[0.5, -1.25, 2.0, 0.75, 3.5, -0.3], 6, 1], [[1.5, 0.25, -0.75, 0.1, 2.2], 5, 2]]},
 {"function": "median_loss", "points": [[[0.5, -1.25, 2.0, 0.75, 3.5]], [[1.5, 0.25, -0.75]]]},
 {"function": "owa", "points": [[[0.5, -1.25, 2.0, 0.75], [0.4, 0.3, 0.2, 0.1], 4]]},
 {"function": "sort_middle", "inouts": {"y": 5}, "points": [[[0.5, -1.25, 2.0, 0.75, 3.5]], [[1.5, 0.25, -0.75, 0.1, 2.2]]]},
 {"function": "sorted_steps", "points": [[[0.5, -1.25, 2.0, 0.75], 4, 3], [[1.5, 0.25, -0.75, 0.1, 2.2], 5, 2]]},
 {"function": "by_rank", "points": [[[0.5, -1.25, 2.0, 0.75], [3, 0, 2, 1], 4]]},
 {"function": "smallest_three", "points": [[[0.5, -1.25, 2.0, 0.75, 3.5, -0.3, 1.7]], [[1.5, 0.25, -0.75, 0.1]]]}]
*/
