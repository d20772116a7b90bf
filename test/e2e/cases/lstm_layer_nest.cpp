// Time x layer x element nests whose layer loop ends in an `if` choosing
// the layer's input (GradBench's lstm as people write it: a cell helper
// updating a state array in place, `if (layer == 0)` reading the scaled
// input, the hidden state below otherwise). The forward sweep tapes per
// (t, layer, i) what each cell iteration's J^T reads, and the backward
// sweep runs no cell forward. Also: a cell loop carrying a float state
// (a running sum: a reduction two deep, not taped per element), and a nest
// whose inner bound changes with the layer (not taped per element either):
// the recomputing J^T. Checked against finite differences.
#include <unfad/unfad.h>

#include <cmath>
#include <vector>

static double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

static void cell(int b, const double* weight, const double* bias, double* hidden, double* c, const double* input) {
  for (int i = 0; i < b; ++i) {
    const double forget = sigmoid(input[i] * weight[i] + bias[i]);
    const double ingate = sigmoid(hidden[i] * weight[b + i] + bias[b + i]);
    const double outgate = sigmoid(input[i] * weight[2 * b + i] + bias[2 * b + i]);
    const double change = std::tanh(hidden[i] * weight[3 * b + i] + bias[3 * b + i]);
    c[i] = c[i] * forget + ingate * change;
    hidden[i] = outgate * std::tanh(c[i]);
  }
}

UNFAD_GRADIENT double lstm_nest(int l, int steps, int b, const double* main, const double* extra,
                                const double* state0, const double* seq) {
  std::vector<double> state(2 * l * b), ypred(b);
  for (int i = 0; i < 2 * l * b; ++i) state[i] = state0[i];
  double total = 0.0;
  for (int t = 0; t + 1 < steps; ++t) {
    for (int i = 0; i < b; ++i) ypred[i] = seq[t * b + i] * extra[i];
    for (int layer = 0; layer < l; ++layer) {
      const double* weight = main + 8 * b * layer;
      double* hidden = &state[2 * b * layer];
      if (layer == 0) cell(b, weight, weight + 4 * b, hidden, hidden + b, ypred.data());
      else cell(b, weight, weight + 4 * b, hidden, hidden + b, hidden - 2 * b);
    }
    const double* top = &state[2 * b * (l - 1)];
    for (int i = 0; i < b; ++i) ypred[i] = top[i] * extra[b + i] + extra[2 * b + i];
    double sum = 0.0;
    for (int i = 0; i < b; ++i) sum += std::exp(ypred[i]);
    const double lse = std::log(sum + 2.0);
    for (int i = 0; i < b; ++i) total += seq[(t + 1) * b + i] * (ypred[i] - lse);
  }
  return -total / ((steps - 1) * b);
}

// A cell whose loop carries a running sum into each element's update.
static void mixing_cell(int b, const double* w, double* h, const double* in) {
  double run = 0.0;
  for (int i = 0; i < b; ++i) {
    run = run + std::sin(w[i] * in[i]);
    h[i] = std::tanh(h[i] * w[b + i] + run);
  }
}

UNFAD_GRADIENT double running_layers(const double* w, const double* x, int b, int layers, int steps) {
  std::vector<double> h(layers * b, 0.2);
  double total = 0.0;
  for (int t = 0; t < steps; ++t) {
    for (int layer = 0; layer < layers; ++layer) {
      if (layer == 0) mixing_cell(b, w, &h[0], x + t * b);
      else mixing_cell(b, w + 2 * b * layer, &h[layer * b], &h[(layer - 1) * b]);
    }
    for (int i = 0; i < b; ++i) total += h[(layers - 1) * b + i] * x[t * b + i];
  }
  return total;
}

// The inner bound grows with the layer: tapes cannot be sized per element
// before the time loop; the nest keeps the recomputing J^T.
UNFAD_GRADIENT double triangular_layers(const double* w, int b, int layers, int steps) {
  std::vector<double> h(layers * b, 0.3);
  for (int t = 0; t < steps; ++t)
    for (int layer = 0; layer < layers; ++layer) {
      if (layer == 0) {
        for (int i = 0; i < b; ++i) h[i] = std::sin(w[i] * h[i] + 0.1 * t);
      } else {
        for (int i = 0; i <= layer && i < b; ++i) h[layer * b + i] = std::cos(w[layer * b + i] * h[(layer - 1) * b + i]);
      }
    }
  double e = 0.0;
  for (int i = 0; i < layers * b; ++i) e += h[i] * h[i];
  return e;
}

/* e2e
[{"function": "lstm_nest",
  "points": [[3, 4, 2, [0.3, -0.2, 0.5, 0.1, -0.4, 0.25, 0.6, -0.3, 0.2, 0.15, -0.1, 0.35, 0.45, -0.5, 0.05, 0.3, -0.25, 0.4, 0.12, -0.33, 0.27, 0.08, -0.15, 0.22, 0.31, -0.41, 0.19, 0.06, -0.28, 0.37, 0.14, -0.09, 0.24, -0.36, 0.11, 0.29, -0.07, 0.18, 0.42, -0.21, 0.33, 0.09, -0.26, 0.16, 0.38, -0.12, 0.21, 0.05],
              [0.4, -0.3, 0.6, 0.2, 0.1, -0.2], [0.1, -0.2, 0.3, 0.05, -0.15, 0.25, 0.2, -0.1, 0.15, 0.3, -0.05, 0.12],
              [0.5, 0.2, 0.1, 0.7, 0.3, 0.4, 0.6, 0.1]],
             [1, 3, 3, [0.2, -0.1, 0.3, 0.4, -0.2, 0.1, 0.25, 0.05, -0.3, 0.15, 0.2, -0.25, 0.1, 0.3, -0.15, 0.05, 0.2, -0.1, 0.35, 0.15, -0.05, 0.1, 0.25, -0.2],
              [0.3, -0.4, 0.5, 0.2, 0.1, -0.3, 0.05, 0.15, -0.1], [0.2, -0.1, 0.3, 0.1, 0.05, -0.2],
              [0.1, 0.6, 0.3, 0.4, 0.2, 0.4, 0.5, 0.3, 0.2]]]},
 {"function": "running_layers",
  "points": [[[0.3, -0.2, 0.5, 0.1, -0.4, 0.25, 0.6, -0.3, 0.2, 0.15, -0.1, 0.35, 0.45, -0.5, 0.05, 0.3, -0.25, 0.4],
              [0.2, -0.5, 0.7, 0.1, 0.4, -0.3, -0.6, 0.25, 0.9, 0.3, -0.2, 0.05], 3, 3, 4]]},
 {"function": "triangular_layers",
  "points": [[[0.3, -0.2, 0.5, 0.1, -0.4, 0.25, 0.6, -0.3, 0.2, 0.15, -0.1, 0.35], 3, 4, 3]]}]
*/
