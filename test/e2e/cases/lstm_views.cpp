// A two-layer LSTM objective written the way C++ programmers write it (the
// shape of GradBench's lstm): one flat parameter array, each layer's weights
// and biases as a struct of `const double*` views into it (nested: a struct
// of four gate views per weights and per biases), a local array of those
// structs filled in a loop, the hidden and cell state as `double*` views
// into one local state buffer updated in place by a helper that takes the
// structs, sigmoid and tanh gates, and a log-sum-exp loss over a sequence.
#include <unfad/unfad.h>

#include <cmath>

struct Gates {
  const double* forget;
  const double* input;
  const double* output;
  const double* change;
};

struct LayerParams {
  Gates weight;
  Gates bias;
};

struct LayerState {
  double* hidden;
  double* cell;
};

static double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

static double log_sum_exp(const double* v, int n) {
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += std::exp(v[i]);
  return std::log(s + 2.0);
}

// one step of one layer: the gates, then the new cell and hidden state
static void cell_step(int b, const LayerParams& p, LayerState s, const double* in) {
  for (int i = 0; i < b; ++i) {
    const double forget = sigmoid(in[i] * p.weight.forget[i] + p.bias.forget[i]);
    const double input = sigmoid(s.hidden[i] * p.weight.input[i] + p.bias.input[i]);
    const double output = sigmoid(in[i] * p.weight.output[i] + p.bias.output[i]);
    const double change = std::tanh(s.hidden[i] * p.weight.change[i] + p.bias.change[i]);
    s.cell[i] = s.cell[i] * forget + input * change;
    s.hidden[i] = output * std::tanh(s.cell[i]);
  }
}

// b <= 4 hidden units, two layers, c steps of the sequence `seq` (c x b)
UNFAD_GRADIENT double lstm_loss(const double* main, const double* extra, const double* state0, const double* seq,
                                int b, int c) {
  const int layers = 2;
  LayerParams params[2];
  for (int l = 0; l < layers; ++l) {
    const double* w = main + 8 * b * l;
    params[l] = LayerParams{{w, w + b, w + 2 * b, w + 3 * b}, {w + 4 * b, w + 5 * b, w + 6 * b, w + 7 * b}};
  }
  double state[16];
  for (int k = 0; k < 2 * layers * b; ++k) state[k] = state0[k];
  LayerState st[2];
  for (int l = 0; l < layers; ++l) {
    st[l].hidden = state + 2 * b * l;
    st[l].cell = state + 2 * b * l + b;
  }
  double ypred[4], ynorm[4];
  double total = 0.0;
  for (int t = 0; t < c - 1; ++t) {
    const double* x = seq + t * b;
    for (int i = 0; i < b; ++i) ypred[i] = x[i] * extra[i];
    cell_step(b, params[0], st[0], ypred);
    cell_step(b, params[1], st[1], st[0].hidden);
    for (int i = 0; i < b; ++i) ypred[i] = st[1].hidden[i] * extra[b + i] + extra[2 * b + i];
    const double lse = log_sum_exp(ypred, b);
    for (int i = 0; i < b; ++i) ynorm[i] = ypred[i] - lse;
    const double* gold = seq + (t + 1) * b;
    for (int i = 0; i < b; ++i) total += gold[i] * ynorm[i];
  }
  return -total / ((c - 1) * b);
}

/* e2e
[{"function": "lstm_loss",
  "points": [[[-0.419, 0.071, -0.208, 0.166, 0.201, -0.695, -0.779, 0.54, -0.385, -0.425, 0.793, -0.048, 0.538, -0.038, 0.223, -0.559, 0.216, 0.589, 0.037, 0.386, 0.274, -0.698, 0.413, 0.146, -0.318, -0.75, 0.585, -0.044, 0.35, 0.606, 0.343, 0.674], [-0.168, 0.481, -0.089, 0.697, 0.606, -0.644], [-0.582, -0.453, 0.745, -0.102, 0.203, -0.318, 0.012, -0.183], [-0.239, 0.136, 0.135, 0.647, 0.291, 0.686, 0.57, 0.786], 2, 4]]}]
*/
