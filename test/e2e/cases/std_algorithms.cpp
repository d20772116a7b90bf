// Standard algorithms on arrays, lowered to loops: std::fill / fill_n /
// copy on vectors and on pointer ranges, std::swap of elements and of
// scalars, std::accumulate, std::inner_product, *std::max_element and
// *std::min_element.
#include <unfad/unfad.h>

#include <algorithm>
#include <numeric>
#include <vector>

UNFAD_GRADIENT double algorithms(const std::vector<double>& v, const double* w, int n, double c) {
  std::vector<double> buf(n);
  std::fill(buf.begin(), buf.end(), c);            // buf = c
  std::copy(w, w + n, buf.begin());                // buf = w
  std::vector<double> tmp(n);
  std::copy(v.begin(), v.end(), tmp.begin());      // tmp = v
  std::swap(tmp[0], tmp[n - 1]);
  double lo = tmp[0], hi = tmp[1];
  if (lo > hi) std::swap(lo, hi);                  // lo <= hi
  double scratch[4];
  std::fill(scratch, scratch + 4, 0.5 * c);
  std::fill_n(scratch, 2, c * c);                  // {c^2, c^2, c/2, c/2}
  const double total = std::accumulate(v.begin(), v.end(), 0.0);
  const double dot = std::inner_product(buf.begin(), buf.end(), tmp.begin(), 1.0);
  const double top = *std::max_element(v.begin(), v.end());
  const double bottom = *std::min_element(w, w + n);
  return total * c + dot + top * bottom + lo - 2 * hi + scratch[0] * scratch[3];
}

// Ranges given as pointers into arrays: `&x[k]` and a pointer local.
UNFAD_GRADIENT double pointer_ranges(const double* x, int n) {
  double buf[6] = {};
  std::copy(&x[1], &x[n], &buf[0]);    // buf = x[1..n)
  const double* p = x + 1;
  std::fill(&buf[2], &buf[4], *p * *p); // buf[2] = buf[3] = x[1]^2
  return std::accumulate(buf, buf + 6, 0.0) * x[0];
}

/* e2e
[{"function": "algorithms",
 "points": [[[0.5, -1.25, 2.0, 0.75], [1.5, 0.25, -0.5, 2.0], 4, 1.5],
            [[1.5, 0.25, -0.5], [0.3, -0.6, 0.9], 3, -0.75]]},
 {"function": "pointer_ranges",
  "points": [[[0.5, -1.25, 2.0, 0.75, 1.5], 5], [[1.5, 0.25, -0.5, 2.0, 0.3, -0.7], 6]],
  "value_formula": "(sum(x[1:n]) - x[3] - x[4] + 2*x[1]*x[1]) * x[0]"}]
*/
