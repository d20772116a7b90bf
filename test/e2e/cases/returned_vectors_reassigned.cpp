// A std::vector local reassigned what a helper returns, `h = layer(...,
// h);`, as a network's forward pass is written with a helper per layer:
// the helper is lowered into the caller and `h` takes the returned length
// (a growing vector, its room the widest result, computed before the loop).
// Also a vector initialised by a call and reassigned another call's result,
// a vector initialised by a call that grows, and a result of another length
// chosen by a branch. Refused before
// ("assigning the std::vector 'layer' returns to an existing vector is not
// supported yet", "a std::vector initialised by a call cannot grow").
#include <unfad/unfad.h>

#include <algorithm>
#include <cmath>
#include <vector>

static std::vector<double> twice(const std::vector<double>& x) { return {2 * x[0], 2 * x[1]}; }

UNFAD_GRADIENT double reassigned(const std::vector<double>& x) {
  std::vector<double> y = twice(x);
  y = twice(y);
  return y[0] * y[1];
}

UNFAD_GRADIENT double grows(const std::vector<double>& x) {
  std::vector<double> y = twice(x);
  y.push_back(x[0]);
  for (int k = 0; k < 3; ++k) y.push_back(y[k] * y[k + 1]);
  return y[2] + y.back() * y.size();
}

// One layer of `out` units reading the weights from `w` at `off`.
static std::vector<double> layer(const std::vector<double>& w, size_t& off, const std::vector<double>& in, int out) {
  std::vector<double> y(out);
  for (int o = 0; o < out; ++o) {
    double s = w[off++];
    for (double a : in) s += w[off++] * a;
    y[o] = std::tanh(s);
  }
  return y;
}

UNFAD_GRADIENT_WRT(w, x)
double network(const std::vector<double>& w, const std::vector<int>& widths, const std::vector<double>& x) {
  std::vector<double> h = x;
  size_t off = 0;
  for (size_t l = 1; l < widths.size(); ++l) h = layer(w, off, h, widths[l]);
  double r = 0;
  for (double v : h) r += v * v;
  return r + h.size();
}

static std::vector<double> head(const std::vector<double>& v, size_t n) {
  std::vector<double> out(std::min(n, v.size()));
  for (size_t i = 0; i < out.size(); ++i) out[i] = v[i];
  return out;
}

UNFAD_GRADIENT_WRT(x)
double chosen(const std::vector<double>& x, int k) {
  std::vector<double> h = x;
  if (k > 1) h = head(x, k);
  else h = twice(h);
  double s = 0;
  for (size_t i = 0; i < h.size(); ++i) s += (i + 1.0) * std::sin(h[i]);
  return s;
}

/* e2e
[{"function": "reassigned", "points": [[[0.7, -0.3]]]},
 {"function": "grows", "points": [[[0.7, -0.3]]]},
 {"function": "network", "points": [[[0.1, -0.2, 0.3, 0.5, -0.5, 1.0, 0.4, 0.1, -0.6, 0.9, 1.2, -0.3, 0.2, 0.5, -0.1, 0.3, 0.7, -0.8, 0.25, 0.6, -0.4, 0.15, 0.35, -0.45, 0.55, 0.05, -0.65],
                                    [3, 2, 4, 1], [0.7, -0.3, 1.1]],
                                   [[0.1, 0.4, -0.3], [2, 1], [0.7, -0.3]]]},
 {"function": "chosen", "points": [[[0.7, -0.3, 1.1, 0.4], 3], [[0.7, -0.3, 1.1, 0.4], 1], [[0.7, -0.3, 1.1], 7]]}]
*/
