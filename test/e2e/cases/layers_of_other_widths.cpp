// A std::vector local assigned arrays of other lengths, as a multilayer
// perceptron carries its activations across layers of other widths:
// `cur = next;` with `next` made per layer at that layer's width, also as
// `cur = std::move(next)` of a vector built by push_back, a vector resized
// per iteration to a width read from an array, activations handed to
// helpers, an assignment chosen by a branch, and widths that shrink and
// grow back. Refused before ("assignment of whole arrays is only supported
// where both have the same length by construction"). The vector holds one
// buffer with room for the widest array assigned (a maximum over the loop's
// iterations, computed before it) and its length.
#include <unfad/unfad.h>

#include <cmath>
#include <utility>
#include <vector>

UNFAD_GRADIENT_WRT(w, x)
double mlp(const std::vector<double>& w, const std::vector<int>& widths, const std::vector<double>& x) {
  std::vector<double> cur(x);
  size_t off = 0;
  for (size_t l = 0; l + 1 < widths.size(); ++l) {
    std::vector<double> next(widths[l + 1], 0.0);
    for (int o = 0; o < widths[l + 1]; ++o) {
      double s = w[off++];
      for (int i = 0; i < widths[l]; ++i) s += w[off++] * cur[i];
      next[o] = std::tanh(s);
    }
    cur = next;
  }
  double r = 0;
  for (double v : cur) r += v * v;
  return r + cur.size();
}

UNFAD_GRADIENT_WRT(w, x)
double pushed(const std::vector<double>& w, const std::vector<int>& widths, const std::vector<double>& x) {
  std::vector<double> cur = x;
  size_t off = 0;
  for (size_t l = 0; l + 1 < widths.size(); ++l) {
    std::vector<double> next;
    for (int o = 0; o < widths[l + 1]; ++o) {
      double s = w[off++];
      for (size_t i = 0; i < cur.size(); ++i) s += w[off++] * cur[i];
      next.push_back(s > 0 ? s : 0.1 * s);
    }
    cur = std::move(next);
  }
  double r = 0;
  for (size_t i = 0; i < cur.size(); ++i) r += (i + 1.0) * cur[i];
  return r;
}

static double log_sum_exp(const std::vector<double>& v) {
  double m = v[0];
  for (double e : v) m = std::max(m, e);
  double s = 0;
  for (double e : v) s += std::exp(e - m);
  return m + std::log(s);
}

static void dense(const std::vector<double>& in, const double* w, std::vector<double>& out) {
  for (size_t o = 0; o < out.size(); ++o) {
    double s = 0;
    for (size_t i = 0; i < in.size(); ++i) s += w[o * in.size() + i] * in[i];
    out[o] = std::sin(s);
  }
}

UNFAD_GRADIENT_WRT(w, x)
double helpers(const double* w, const int* widths, int layers, const std::vector<double>& x) {
  std::vector<double> cur(x.begin(), x.end());
  int off = 0;
  double lse = 0;
  for (int l = 0; l < layers; ++l) {
    std::vector<double> next(widths[l]);
    dense(cur, w + off, next);
    off += widths[l] * static_cast<int>(cur.size());
    cur = next;
    lse += log_sum_exp(cur);
  }
  return lse;
}

UNFAD_GRADIENT_WRT(x)
double resized(const std::vector<double>& x, const std::vector<int>& widths) {
  std::vector<double> buf;
  double s = 0;
  for (size_t l = 0; l < widths.size(); ++l) {
    buf.resize(widths[l]);
    for (int i = 0; i < widths[l]; ++i) buf[i] = x[(l + i) % x.size()] * (i + 1);
    for (size_t i = 0; i < buf.size(); ++i) s += std::cos(buf[i]) * buf[i];
  }
  return s;
}

UNFAD_GRADIENT_WRT(a, b)
double chosen(const std::vector<double>& a, const std::vector<double>& b, int rounds) {
  std::vector<double> cur = a;
  double s = 0;
  for (int k = 0; k < rounds; ++k) {
    if (k % 2 == 1) cur = b;
    else cur = a;
    for (size_t i = 0; i < cur.size(); ++i) s += cur[i] * cur[i] * (k + 1);
    cur[0] *= s;
  }
  return s + cur[0];
}

// helpers given the activations by reference, reading and rewriting them
// in place (lowered into the caller, where their size() is the length)
static void leaky(std::vector<double>& v) {
  for (double& e : v) e = e > 0 ? e : 0.01 * e;
}
static double norm2(const std::vector<double>& v) {
  double s = 0;
  for (size_t i = 0; i < v.size(); ++i) s += v[i] * v[i];
  return s;
}

UNFAD_GRADIENT_WRT(w, x)
double inplace(const std::vector<double>& w, const std::vector<int>& widths, const std::vector<double>& x) {
  std::vector<double> cur = x;
  int off = 0;
  double s = 0;
  for (size_t l = 1; l < widths.size(); ++l) {
    std::vector<double> next(widths[l], 0.0);
    for (int o = 0; o < widths[l]; ++o)
      for (size_t i = 0; i < cur.size(); ++i) next[o] += w[off++] * cur[i];
    cur = next;
    leaky(cur);
    s += norm2(cur) * l;
  }
  return s;
}

// a trip count read from an input nothing writes: read where `v` is
// declared, it bounds v's room
UNFAD_GRADIENT_WRT(x)
double counted_by_input(const double* x, int n) {
  std::vector<double> v;
  const int m = static_cast<int>(x[0]) + n;
  for (int i = 0; i < m; ++i) v.push_back(x[i / 2] * (i + 1));
  double s = 0.0;
  for (double e : v) s += e * std::sin(e);
  return s;
}

/* e2e
[{"function": "mlp", "points": [[[0.1, -0.2, 0.3, 0.5, -0.5, 1.0, 0.4, 0.1, -0.6, 0.9, 1.2, -0.3, 0.2, 0.5, -0.1, 0.3, 0.7, -0.8, 0.25, 0.6, -0.4, 0.15, 0.35, -0.45, 0.55, 0.05, -0.65],
                                  [3, 2, 4, 1], [0.7, -0.3, 1.1]],
                                 [[0.1, -0.2, 0.3, 0.5], [3], [0.7, -0.3, 1.1]],
                                 [[0.1, -0.2, 0.3, 0.5, -0.5, 1.0, 0.4, 0.1, -0.6, 0.9, 1.2, -0.3, 0.2, 0.5, -0.1, 0.3, 0.7, -0.8, 0.25, 0.6, -0.4, 0.15, 0.35, -0.45],
                                  [1, 4, 3], [0.7]]]},
 {"function": "pushed", "points": [[[0.1, -0.2, 0.3, 0.5, -0.5, 1.0, 0.4, 0.1, -0.6, 0.9, 1.2, -0.3, 0.2, 0.5, -0.1, 0.3, 0.7, -0.8, 0.25, 0.6, -0.4, 0.15, 0.35, -0.45, 0.55, 0.05, -0.65],
                                     [3, 2, 4, 1], [0.7, -0.3, 1.1]],
                                    [[0.1, -0.2], [2], [0.7, -0.3]]]},
 {"function": "helpers", "points": [[[0.1, -0.2, 0.3, 0.5, -0.5, 1.0, 0.4, 0.1, -0.6, 0.9, 1.2, -0.3, 0.2, 0.5, -0.1, 0.3, 0.7, -0.8, 0.25, 0.6, -0.4, 0.15],
                                      [4, 2, 3], 3, [0.7, -0.3]],
                                     [[0.1], [4], 0, [0.7, -0.3]]]},
 {"function": "resized", "points": [[[0.7, -0.3, 1.1, 0.4], [2, 5, 1, 3]], [[0.7], []]]},
 {"function": "chosen", "points": [[[0.7, -0.3, 0.2], [0.4, 0.9], 4], [[0.7, -0.3, 0.2], [0.4, 0.9], 0]]},
 {"function": "inplace", "points": [[[0.1, -0.2, 0.3, 0.5, -0.5, 1.0, 0.4, 0.1, -0.6, 0.9, 1.2, -0.3, 0.2, 0.5, -0.1, 0.3, 0.7, -0.8, 0.25, 0.6, -0.4, 0.15, 0.35, -0.45],
                                      [3, 2, 4, 1], [0.7, -0.3, 1.1]]]},
 {"function": "counted_by_input", "points": [[[2.5, -0.3, 0.2, 0.9, 1.1], 3], [[0.5, 0.7], 0]]}]
*/
