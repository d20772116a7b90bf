// Pointer locals made to point into another array than the one they were
// initialised with, the way GradBench's lstm walks its layers: the input of
// the first layer is the scaled input, the input of every other layer the
// hidden state of the one below (`in = state + k * n` after each layer),
// and the output is read through whichever array the pointer ended in.
// Also: a pointer chosen in a branch, re-seated in straight-line code, and
// moved (`++p`) after re-seating; pointer parameters re-seated (`x = y`).
#include <unfad/unfad.h>

#include <cmath>
#include <vector>

static void layer(int n, const double* w, double* h, const double* in) {
  for (int i = 0; i < n; ++i) h[i] = std::tanh(w[i] * in[i] + w[n + i] * h[i]);
}

// n <= 3 units, depth layers; w holds 2n weights per layer
UNFAD_GRADIENT double stack(const double* w, const double* x, int n, int depth) {
  std::vector<double> scaled(n), state(n * depth, 0.25);
  for (int i = 0; i < n; ++i) scaled[i] = 2.0 * x[i];
  const double* in = scaled.data();
  for (int k = 0; k < depth; ++k) {
    layer(n, &w[2 * n * k], &state[n * k], in);
    in = &state[n * k];
  }
  double s = 0;
  for (int i = 0; i < n; ++i) s += in[i] * x[i];
  return s;
}

// the array chosen by a branch, then straight-line re-seating and a move
UNFAD_GRADIENT double choose(const double* a, const double* b, int n, int which) {
  double local[4] = {0.5, -0.5, 1.5, 2.0};
  const double* p = a;
  if (which > 0) p = b;
  double s = 0;
  for (int i = 0; i < n; ++i) s += p[i] * p[i];
  p = local;
  ++p;
  s += p[0] * a[0];
  p = b;
  s += std::sin(p[n - 1]);
  return s;
}

// pointer parameters re-seated to another parameter, in a helper and in
// the marked function
static double walk(const double* x, const double* y, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    s += x[0] * x[1];
    x = y;
  }
  return s;
}

UNFAD_GRADIENT double params(const double* x, const double* y, int n) {
  double s = walk(x, y, n);
  for (int i = 0; i < n; ++i) {
    s += std::exp(0.1 * x[i]) * y[i];
    if (i == 1) x = y;
  }
  return s;
}

/* e2e
[{"function": "stack",
  "points": [[[0.3, -0.5, 0.8, 0.1, -0.2, 0.7, 0.4, -0.9, 0.6, 0.2, -0.3, 0.5], [0.5, -1.0, 0.25], 3, 2],
             [[1.1, -0.4, 0.2, 0.9, 0.3, -0.6], [0.9, -0.7], 2, 1],
             [[1.1, -0.4, 0.2, 0.9, 0.3, -0.6, 0.5, 0.8, -0.1, 0.7, 0.4, 0.2], [0.9, -0.7], 2, 3]]},
 {"function": "params",
  "points": [[[0.3, -0.5, 0.8], [0.5, -1.0, 0.25], 3], [[1.2, 0.4], [-0.3, 0.9], 2]]},
 {"function": "choose",
  "points": [[[0.3, -0.5, 0.8], [0.5, -1.0, 0.25], 3, 0], [[0.3, -0.5, 0.8], [0.5, -1.0, 0.25], 3, 1]]}]
*/
