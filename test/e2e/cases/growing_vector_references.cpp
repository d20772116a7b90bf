// Reference locals bound to a growing local std::vector: `const auto& r =
// v;` read by index, size() and range-for; `auto& w = v;` rewriting v's
// elements in place, also bound inside the loop that grows v; a const
// reference to a vector assigned layers of other widths. Refused before
// ("references to a growing std::vector are not supported"). The reference
// is the vector: the same buffer and the same length. (Resizing through the
// reference is refused: test/lit/diagnostics/grow_through_reference.cpp.)
#include <unfad/unfad.h>

#include <cmath>
#include <vector>

UNFAD_GRADIENT_WRT(x)
double reads(const std::vector<double>& x, int n) {
  std::vector<double> v;
  for (int i = 0; i < n; ++i) v.push_back(std::sin(x[i % x.size()]) * (i + 1));
  const std::vector<double>& r = v;
  double s = 0;
  for (double e : r) s += e * e;
  for (size_t i = 0; i + 1 < r.size(); ++i) s += r[i] * v[i + 1];
  return s + r.size();
}

UNFAD_GRADIENT_WRT(x)
double rewrites(const std::vector<double>& x) {
  std::vector<double> v;
  for (size_t i = 0; i < x.size(); ++i) {
    v.push_back(x[i] * x[i]);
    std::vector<double>& w = v;
    w[i / 2] += std::cos(x[i]) * w.size();
  }
  auto& all = v;
  for (double& e : all) e = std::exp(-e);
  double s = 0;
  for (size_t i = 0; i < v.size(); ++i) s += (i + 1.0) * v[i];
  return s;
}

UNFAD_GRADIENT_WRT(w, x)
double layered(const std::vector<double>& w, const std::vector<int>& widths, const std::vector<double>& x) {
  std::vector<double> cur(x);
  size_t off = 0;
  for (size_t l = 0; l + 1 < widths.size(); ++l) {
    const auto& in = cur;
    std::vector<double> next(widths[l + 1]);
    for (int o = 0; o < widths[l + 1]; ++o) {
      double s = w[off++];
      for (size_t i = 0; i < in.size(); ++i) s += w[off++] * in[i];
      next[o] = std::tanh(s);
    }
    cur = next;
  }
  const auto& out = cur;
  double r = 0;
  for (double v : out) r += v * v;
  return r;
}

/* e2e
[{"function": "reads", "points": [[[0.7, -0.3, 1.1], 5], [[0.2], 1], [[0.2], 0]]},
 {"function": "rewrites", "points": [[[0.7, -0.3, 1.1, 0.4, -0.9]], [[0.5]]]},
 {"function": "layered", "points": [[[0.1, -0.2, 0.3, 0.5, -0.5, 1.0, 0.4, 0.1, -0.6, 0.9, 1.2, -0.3, 0.2, 0.5, -0.1, 0.3, 0.7, -0.8, 0.25, 0.6, -0.4, 0.15, 0.35, -0.45, 0.55, 0.05, -0.65],
                                   [3, 2, 4, 1], [0.7, -0.3, 1.1]]]}]
*/
