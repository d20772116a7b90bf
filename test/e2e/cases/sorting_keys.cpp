// Sorting with a key comparator (lib/frontend/sorting.cpp): structs by a
// member, indices by the values they point at (argsort with std::iota), by
// a computed key, with a lambda held by a local and with a function. The
// points have no ties in the keys.
#include <unfad/unfad.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

struct Item {
  double weight;
  double value;
};

static bool heavier(const Item& a, const Item& b) { return a.weight > b.weight; }

// Structs by a member: the two lightest items' values, after a sort by a
// lambda; then the heaviest by a function comparator.
UNFAD_GRADIENT double lightest_two(const double* w, const double* v, int n) {
  std::vector<Item> items(n);
  for (int i = 0; i < n; ++i) items[i] = Item{w[i], v[i] * w[i]};
  std::sort(items.begin(), items.end(), [](const Item& a, const Item& b) { return a.weight < b.weight; });
  const double light = items[0].value + 0.5 * items[1].value;
  std::sort(items.begin(), items.end(), heavier);
  return light + std::sin(items[0].value);
}

// Argsort: indices ordered by the values, then a rank-weighted sum.
UNFAD_GRADIENT double rank_weighted(const std::vector<double>& x) {
  const int n = static_cast<int>(x.size());
  std::vector<int> idx(n);
  std::iota(idx.begin(), idx.end(), 0);
  std::sort(idx.begin(), idx.end(), [&](int i, int j) { return x[i] < x[j]; });
  double s = 0.0;
  for (int r = 0; r < n; ++r) s += (r + 1) * x[idx[r]] * x[idx[r]];
  return s;
}

// A computed key, descending, through a lambda held by a local.
UNFAD_GRADIENT double by_magnitude(const double* x, int n) {
  std::vector<double> v(x, x + n);
  auto larger = [](double a, double b) { return std::abs(a) > std::abs(b); };
  std::sort(v.begin(), v.end(), larger);
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += v[i] / (i + 1.0);
  return s;
}

// std::iota of doubles (a grid), then a sort of positions scaled by them.
UNFAD_GRADIENT double grid_sorted(const double* x, int n) {
  std::vector<double> t(n);
  std::iota(t.begin(), t.end(), 0.5);
  for (int i = 0; i < n; ++i) t[i] = x[i] * t[i];
  std::nth_element(t.begin(), t.begin() + n / 2, t.end(), [](double a, double b) { return a < b; });
  return t[n / 2] * t[n / 2];
}

/* e2e
[{"function": "lightest_two", "points": [[[0.5, 1.25, 2.0, 0.75], [0.3, -0.2, 1.1, 0.4], 4], [[1.5, 0.25, 0.95], [0.7, 0.2, -0.6], 3]]},
 {"function": "rank_weighted", "points": [[[0.5, -1.25, 2.0, 0.75, 3.5]], [[1.5, 0.25, -0.75]]]},
 {"function": "by_magnitude", "points": [[[0.5, -1.25, 2.0, 0.75], 4]]},
 {"function": "grid_sorted", "points": [[[0.5, -1.25, 2.0, 0.75, 0.1], 5], [[1.5, 0.25, -0.75], 3]]}]
*/
