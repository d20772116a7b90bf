// Standard algorithms over reverse iterators (v.rbegin(), v.rend(), crbegin,
// k.rbegin() as a second range or a destination): Horner's rule by
// std::accumulate, a discounted return by std::for_each, a convolution by
// std::inner_product, std::transform into and out of reversed ranges,
// std::copy reversed, std::count_if / std::reduce / std::transform_reduce.
#include <unfad/unfad.h>
#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <numeric>
#include <vector>

// Horner's rule over the coefficients from the highest power down.
UNFAD_GRADIENT double horner(const std::vector<double>& c, double x) {
  return std::accumulate(c.rbegin(), c.rend(), 0.0, [x](double acc, double ck) { return acc * x + ck; });
}

// A discounted return accumulated from the last reward back.
UNFAD_GRADIENT double discounted(const std::vector<double>& r, double gamma) {
  double g = 0;
  std::for_each(r.rbegin(), r.rend(), [&](double rk) { g = rk + gamma * g; });
  return g;
}

// A convolution at one point: the kernel walked backwards against the signal.
UNFAD_GRADIENT double convolve_at(const std::vector<double>& x, const std::array<double, 3>& k) {
  return std::inner_product(x.begin(), x.begin() + 3, k.rbegin(), 0.0);
}

// The reversed sequence written by std::transform, then a weighted sum.
UNFAD_GRADIENT void reversed_squares(const std::vector<double>& x, std::vector<double>& out) {
  std::transform(x.rbegin(), x.rend(), out.begin(), [](double v) { return v * v; });
  std::transform(x.begin(), x.end(), out.rbegin(), out.begin(), [](double v, double o) { return o + std::sin(v); });
}

// A sum over the tail of the sequence, from std::reduce on reverse iterators
// (counting how many are positive on the way).
UNFAD_GRADIENT double tail_sum(const std::vector<double>& x) {
  const auto positives = std::count_if(x.rbegin(), x.rend() - 1, [](double v) { return v > 0; });
  return std::reduce(x.rbegin(), x.rbegin() + 2) * static_cast<double>(positives) +
         std::transform_reduce(x.crbegin(), x.crend(), 0.0, std::plus<>(), [](double v) { return std::exp(-v); });
}
// A reversed copy into a local, then read in order.
UNFAD_GRADIENT double reversed_copy(const std::vector<double>& x) {
  std::vector<double> r(x.size());
  std::copy(x.rbegin(), x.rend(), r.begin());
  double s = 0;
  for (std::size_t i = 0; i < r.size(); ++i) s += r[i] * static_cast<double>(i + 1);
  return s;
}
/* e2e
[{"function": "horner", "points": [[[0.3, -1.2, 2.0, 0.7], 0.9]]},
 {"function": "discounted", "points": [[[0.3, -1.2, 2.0, 0.7], 0.9]]},
 {"function": "convolve_at", "points": [[[0.3, -1.2, 2.0, 0.7], [0.5, 0.25, -1.0]]]},
 {"function": "reversed_squares", "points": [[[0.3, -1.2, 2.0, 0.7]]], "outputs": {"out": 4}},
 {"function": "reversed_copy", "points": [[[0.3, -1.2, 2.0, 0.7]]]},
 {"function": "tail_sum", "points": [[[0.3, -1.2, 2.0, 0.7]], [[-0.3, 1.2, 2.0, -0.7]]]}]
*/
