// A local std::vector of std::vector rows grown by rows whose lengths are
// known only at run time: a network keeping every layer's activations
// (`acts.push_back(next)` with layers of other widths), read as
// `acts[l][i]`, `acts[l].size()`, by range-for over the rows, through
// `const auto& a = acts[l]` and by helpers given a row; rows that are
// themselves growing vectors; braces of different lengths. Refused before
// ("a growing local std::vector of std::vector rows is only grown by
// 'push_back({...})' of rows of one constant length"). The table is one
// flat buffer whose stride is its longest row and an array of row lengths.
#include <unfad/unfad.h>

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

static double mean_square(const std::vector<double>& v) {
  double s = 0;
  for (double e : v) s += e * e;
  return s / v.size();
}

UNFAD_GRADIENT_WRT(w, x)
double kept(const std::vector<double>& w, const std::vector<int>& widths, const std::vector<double>& x) {
  std::vector<std::vector<double>> acts;
  acts.push_back(x);
  size_t off = 0;
  for (size_t l = 0; l + 1 < widths.size(); ++l) {
    std::vector<double> next(widths[l + 1]);
    for (int o = 0; o < widths[l + 1]; ++o) {
      double s = w[off++];
      for (size_t i = 0; i < acts[l].size(); ++i) s += w[off++] * acts[l][i];
      next[o] = std::tanh(s);
    }
    acts.push_back(next);
  }
  double r = 0;
  for (const auto& a : acts) r += mean_square(a);
  const auto& last = acts[acts.size() - 1];
  for (size_t i = 0; i < last.size(); ++i) r += (i + 1.0) * last[i];
  return r + acts.size();
}

UNFAD_GRADIENT_WRT(x)
double prefixes(const std::vector<double>& x, int n) {
  std::vector<std::vector<double>> rows;
  std::vector<double> cur;
  for (int k = 0; k < n; ++k) {
    cur.push_back(std::sin(x[k % x.size()] * (k + 1)));
    rows.push_back(cur);
  }
  double s = 0;
  for (size_t r = 0; r < rows.size(); ++r)
    for (size_t j = 0; j < rows[r].size(); ++j) s += rows[r][j] * (r + 1.0) / (j + 2.0);
  return s;
}

UNFAD_GRADIENT double braces(double a, double b) {
  std::vector<std::vector<double>> t;
  t.push_back({a});
  t.push_back({a * b, b, std::exp(a)});
  t.push_back({b * b, a});
  double s = 0;
  for (const auto& row : t) {
    double p = 1;
    for (double e : row) p *= e;
    s += p * row.size();
  }
  return s;
}

// The last row as the next layer's input (`acts.back()`), also read by
// range-for, and the first row by front().
UNFAD_GRADIENT_WRT(w, x)
double back_rows(const std::vector<double>& w, const std::vector<int>& widths, const std::vector<double>& x) {
  std::vector<std::vector<double>> acts;
  acts.push_back(x);
  size_t off = 0;
  for (size_t l = 0; l + 1 < widths.size(); ++l) {
    const std::vector<double>& in = acts.back();
    std::vector<double> next;
    for (int o = 0; o < widths[l + 1]; ++o) {
      double s = w[off++];
      for (double a : in) s += w[off++] * a;
      next.push_back(std::tanh(s));
    }
    acts.push_back(next);
  }
  double r = 0;
  for (double v : acts.back()) r += v;
  for (size_t i = 0; i < acts.front().size(); ++i) r += acts.front()[i] * acts.back().size();
  return r * acts.size() + acts.at(1)[0];
}

// Rows moved in by emplace_back, a sigmoid network, and a loss reading each
// row through std::max_element.
UNFAD_GRADIENT_WRT(w, x)
double emplaced(const std::vector<double>& w, const std::vector<int>& widths, const std::vector<double>& x) {
  std::vector<std::vector<double>> acts;
  acts.push_back(x);
  size_t off = 0;
  for (size_t l = 1; l < widths.size(); ++l) {
    const auto& in = acts.back();
    std::vector<double> next(widths[l]);
    for (int o = 0; o < widths[l]; ++o) {
      double s = w[off++];
      for (size_t i = 0; i < in.size(); ++i) s += w[off++] * in[i];
      next[o] = 1.0 / (1.0 + std::exp(-s));
    }
    acts.emplace_back(std::move(next));
  }
  double r = 0;
  for (size_t l = 0; l < acts.size(); ++l) r += *std::max_element(acts[l].begin(), acts[l].end());
  return r;
}

/* e2e
[{"function": "kept", "points": [[[0.1, -0.2, 0.3, 0.5, -0.5, 1.0, 0.4, 0.1, -0.6, 0.9, 1.2, -0.3, 0.2, 0.5, -0.1, 0.3, 0.7, -0.8, 0.25, 0.6, -0.4, 0.15, 0.35, -0.45, 0.55, 0.05, -0.65],
                                   [3, 2, 4, 1], [0.7, -0.3, 1.1]],
                                  [[0.1], [2], [0.7, -0.3]]]},
 {"function": "prefixes", "points": [[[0.7, -0.3, 1.1], 5], [[0.7], 0]]},
 {"function": "braces", "points": [[0.7, -1.3]]},
 {"function": "emplaced", "points": [[[0.1, -0.2, 0.3, 0.5, -0.5, 1.0, 0.4, 0.1, -0.6, 0.9, 1.2, -0.3, 0.2, 0.5, -0.1, 0.3, 0.7, -0.8, 0.25, 0.6, -0.4, 0.15, 0.35, -0.45, 0.55, 0.05, -0.65],
                                       [3, 2, 4, 1], [0.7, -0.3, 1.1]]]},
 {"function": "back_rows", "points": [[[0.1, -0.2, 0.3, 0.5, -0.5, 1.0, 0.4, 0.1, -0.6, 0.9, 1.2, -0.3, 0.2, 0.5, -0.1, 0.3, 0.7, -0.8, 0.25, 0.6, -0.4, 0.15, 0.35, -0.45, 0.55, 0.05, -0.65],
                                        [3, 2, 4, 1], [0.7, -0.3, 1.1]],
                                       [[0.1, 0.2, -0.3], [2, 1], [0.7, -0.3]]]}]
*/
