// Helpers that size the std::vector they are given by reference, as C++
// programmers return vectors from helpers: `void layer(..., std::vector<double>&
// y) { y.assign(out, 0.0); ... }` called with a caller's empty local (`std::vector<double>
// h; layer(w1, x, h); layer(w2, h, o);`), `y.resize(n)` then writes, a helper
// called in a loop with the same local every iteration, `y.clear()` and a
// second `resize(n, v)`. Each was refused before ("'assign' of output 'y'
// is only supported as the first use of 'y' ...").
#include <unfad/unfad.h>

#include <cmath>
#include <vector>

struct Layer {
  const double *w, *b;
  int in, out;
};

static void forward(const Layer& L, const std::vector<double>& x, std::vector<double>& y) {
  y.assign(L.out, 0.0);
  for (int j = 0; j < L.out; ++j) {
    double a = L.b[j];
    for (int i = 0; i < L.in; ++i) a += L.w[j * L.in + i] * x[i];
    y[j] = std::tanh(a);
  }
}

UNFAD_GRADIENT double net(const double* w1, const double* b1, const double* w2, const double* b2,
                          const std::vector<double>& x) {
  const Layer l1{w1, b1, 2, 3}, l2{w2, b2, 3, 2};
  std::vector<double> h, o;
  forward(l1, x, h);
  forward(l2, h, o);
  double s = 0;
  for (double v : o) s += v * v;
  return s + static_cast<double>(h.size());
}

static void squares(const std::vector<double>& x, double k, std::vector<double>& y) {
  y.resize(x.size());
  for (size_t i = 0; i < x.size(); ++i) y[i] = k * x[i] * x[i];
}

UNFAD_GRADIENT double looped(const std::vector<double>& x, int steps) {
  std::vector<double> y;
  double s = 0;
  for (int t = 0; t < steps; ++t) {
    squares(x, 1.0 + 0.5 * t, y);
    for (double v : y) s += std::sin(v);
  }
  return s;
}

static void padded(const std::vector<double>& x, std::vector<double>& y) {
  y.clear();
  y.resize(x.size() + 2, 0.5);
  for (size_t i = 0; i < x.size(); ++i) y[i + 1] = x[i] * y[0];
}

UNFAD_GRADIENT double cleared(const std::vector<double>& x) {
  std::vector<double> y(1, 3.0);
  padded(x, y);
  double s = 0;
  for (size_t i = 0; i + 1 < y.size(); ++i) s += y[i] * y[i + 1];
  return s;
}

/* e2e
[{"function": "net", "points": [[[0.5, -0.3, 0.2, 0.7, -0.6, 0.1], [0.1, -0.2, 0.05], [0.3, -0.4, 0.9, 0.2, 0.5, -0.7], [0.2, -0.1], [0.8, -1.1]]]},
 {"function": "looped", "points": [[[0.5, -1.25, 0.3], 3], [[0.5], 0]]},
 {"function": "cleared", "points": [[[0.5, -1.25, 0.3]], [[]]]}]
*/
