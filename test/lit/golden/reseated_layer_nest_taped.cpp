// GradBench's lstm shape as written: a pointer re-seated to each layer's
// hidden state (`layer_output = layer[k].hidden`, the first layer reading
// the scaled input), view structs in a vector, and a log-sum-exp helper per
// time step. The pointer is carried as integer state (its offset and which
// array), and that state depends on the layer index alone
// (lib/parallel/index_state.cpp): the layer loop computes it from k, so it
// carries no state; the helper, called once, is inlined; the `if` choosing
// the offset is over integers. So the time loop's forward sweep tapes per
// (t, layer, i) what each cell's reverse pass reads, and the backward sweep
// replays the transposed cells from the tapes: no undo log of the state,
// no exp or tanh, no forward run of the cells. (Before: 4.1x the primal on
// GradBench's lstm as written, the cells run twice.)
// RUN: %unfad %s -- -std=c++17 -I%unfad_include > %t.out
// RUN: grep -v '^// *[A-Z-]*:' %t.out | FileCheck %s
#include <unfad/unfad.h>

#include <cmath>
#include <vector>

static double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

static double logsumexp(const double* v, int n) {
  double sum = 0.0;
  for (int i = 0; i < n; ++i) sum += std::exp(v[i]);
  return std::log(sum + 2.0);
}

struct LayerState {
  double* hidden;
  double* cell;
};

static void cell(int b, const double* w, LayerState& s, const double* input) {
  for (int i = 0; i < b; ++i) {
    const double forget = sigmoid(input[i] * w[i]);
    const double change = std::tanh(s.hidden[i] * w[b + i]);
    s.cell[i] = s.cell[i] * forget + change;
    s.hidden[i] = std::tanh(s.cell[i]);
  }
}

UNFAD_GRADIENT double rnn(int layers, int steps, int b, const double* w, const double* seq) {
  std::vector<double> state(2 * layers * b, 0.5), y(b);
  std::vector<LayerState> layer;
  for (int k = 0; k < layers; ++k) layer.push_back(LayerState{&state[2 * b * k], &state[2 * b * k + b]});
  double total = 0.0;
  for (int t = 0; t < steps; ++t) {
    for (int i = 0; i < b; ++i) y[i] = seq[t * b + i];
    double* layer_output = y.data();
    for (int k = 0; k < layers; ++k) {
      cell(b, &w[2 * b * k], layer[k], layer_output);
      layer_output = layer[k].hidden;
    }
    for (int i = 0; i < b; ++i) y[i] = layer_output[i] * seq[t * b + i];
    total += logsumexp(y.data(), b);
  }
  return total;
}
// CHECK-LABEL: double rnn_grad(
// CHECK-NOT:     log_
// CHECK-NOT:     _pullback(
// CHECK:         unfad::tape_buffer<double> [[TAPE:tape_[a-z_0-9]+]]([[NT:n[_0-9]*]] * [[NL:t_[0-9]+]] * [[NB:n_[0-9]+]]);
// CHECK:         for (long [[T:[a-z_0-9]+]] = 0; [[T]] < steps; ++[[T]]) {
// CHECK:           for (long [[K:[a-z_0-9]+]] = 0; [[K]] < layers; ++[[K]]) {
// The layer's input: the scaled input first, then the hidden state below.
// CHECK-NEXT:        const bool [[C:c_[0-9]+]] = [[K]] == 0;
// CHECK:             if ([[C]]) {
// CHECK:             } else {
// CHECK-NEXT:          const long {{[a-z_0-9]+}} = layer_hidden[[[K]] - 1];
// CHECK:               for (long [[I:[a-z_0-9]+]] = 0; [[I]] < b; ++[[I]]) {
// CHECK:                 std::exp(
// CHECK:                 [[TAPE]][([[T]] * [[NL]] + [[K]]) * [[NB]] + [[I]]] =
// CHECK-NOT:     log_
// The backward sweep: the transposed cells read the tapes.
// CHECK:         for (long [[TB:[a-z_0-9]+]] = steps - 1; [[TB]] >= 0; --[[TB]]) {
// CHECK-NOT:       std::exp
// CHECK-NOT:       std::tanh
// CHECK-NOT:       {{[ (]}}state[
// CHECK:           for (long [[KB:[a-z_0-9]+]] = layers - 1; [[KB]] >= 0; --[[KB]]) {
// CHECK-NOT:       std::exp
// CHECK-NOT:       std::tanh
// CHECK-NOT:       {{[ (]}}state[
// CHECK:               [[TAPE]][([[TB]] * [[NL]] + [[KB]]) * [[NB]] +
// CHECK-NOT:       std::exp
// CHECK-NOT:       std::tanh
// CHECK-NOT:       {{[ (]}}state[
// CHECK:         return
