// A recurrent stack of layers whose layer loop picks each layer's input with
// an `if` on the layer's index (the first reads the step's input, the others
// the hidden state below, GradBench's lstm shape), over time steps, with a
// log-sum-exp of the top layer per step. The backward sweep does not rerun
// the `if` that ends the layer loop's body before its J^T (it recomputes
// the branch taken itself), and the tapes of that J^T are allocated once per
// call. Checked against finite differences.
#include <unfad/unfad.h>

#include <cmath>
#include <vector>

static void layer(const double* w, double* h, const double* in, int b) {
  for (int i = 0; i < b; ++i) h[i] = std::tanh(w[i] * in[i] + w[b + i] * h[i]);
}

UNFAD_GRADIENT double stacked(const double* w, const double* x, int b, int layers, int steps) {
  std::vector<double> h(layers * b, 0.1);
  double total = 0.0;
  for (int t = 0; t < steps; ++t) {
    for (int l = 0; l < layers; ++l) {
      if (l == 0) layer(w + 2 * b * l, &h[0], x + t * b, b);
      else layer(w + 2 * b * l, &h[l * b], &h[(l - 1) * b], b);
    }
    double s = 0.0;
    for (int i = 0; i < b; ++i) s += std::exp(h[(layers - 1) * b + i]);
    total += std::log(s) - h[(layers - 1) * b];
  }
  return total;
}

// The same with the branch ending a sum's element and a loop whose state is
// a scalar: each element's `if` is not run forward before its J^T.
UNFAD_GRADIENT double branchy_sum(const double* x, int n) {
  double total = 0.0;
  for (int i = 0; i < n; ++i) {
    double acc = x[i];
    if (i % 2 == 0) {
      for (int k = 0; k < 3; ++k) acc = std::sin(acc) + x[(i + k) % n];
    } else {
      acc = std::exp(0.5 * acc) * x[i];
    }
    total += acc * acc;
  }
  return total;
}

/* e2e
[{"function": "stacked",
  "points": [[[0.3, -0.2, 0.5, 0.1, -0.4, 0.25, 0.6, -0.3, 0.2, 0.15, -0.1, 0.35, 0.45, -0.5, 0.05, 0.3, -0.25, 0.4],
              [0.2, -0.5, 0.7, 0.1, 0.4, -0.3, -0.6, 0.25, 0.9, 0.3, -0.2, 0.05, 0.5, -0.7, 0.15],
              3, 3, 5],
             [[0.3, -0.2, 0.5, 0.1], [1.2, -0.4, 0.3, 0.8], 2, 1, 2]]},
 {"function": "branchy_sum",
  "points": [[[0.5, -1.0, 0.25, 1.5, -0.75], 5], [[0.3], 1]]}]
*/
