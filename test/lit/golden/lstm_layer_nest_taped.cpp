// A recurrent network as people write it: a time loop over layers, each
// layer's cell helper updating a state array in place, `if (layer == 0)`
// choosing the scaled input or the hidden state below, and a log-sum-exp
// of the top layer per step. The forward sweep tapes per (t, layer, i)
// what each cell iteration's reverse pass reads (its exp and tanh values,
// its reads of the state it overwrites), in tapes of steps x layers x b
// allocated once before the time loop; the sum's exps per (t, i). The
// backward sweep evaluates no exp or tanh and restores no state: it
// replays each branch's transposed cell loop from the tapes.
// RUN: %unfad %s -- -std=c++17 -I%unfad_include > %t.out
// RUN: grep -v '^// *[A-Z-]*:' %t.out | FileCheck %s
#include <unfad/unfad.h>

#include <cmath>
#include <vector>

static double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

static void cell(int b, const double* w, double* hidden, double* c, const double* input) {
  for (int i = 0; i < b; ++i) {
    const double forget = sigmoid(input[i] * w[i]);
    const double change = std::tanh(hidden[i] * w[b + i]);
    c[i] = c[i] * forget + change;
    hidden[i] = std::tanh(c[i]);
  }
}

UNFAD_GRADIENT double rnn(int layers, int steps, int b, const double* w, const double* seq) {
  std::vector<double> state(2 * layers * b, 0.5), y(b);
  double total = 0.0;
  for (int t = 0; t < steps; ++t) {
    for (int i = 0; i < b; ++i) y[i] = seq[t * b + i];
    for (int layer = 0; layer < layers; ++layer) {
      double* hidden = &state[2 * b * layer];
      if (layer == 0) cell(b, w + 2 * b * layer, hidden, hidden + b, y.data());
      else cell(b, w + 2 * b * layer, hidden, hidden + b, hidden - 2 * b);
    }
    double sum = 0.0;
    for (int i = 0; i < b; ++i) sum += std::exp(state[2 * b * (layers - 1) + i]);
    total += std::log(sum);
  }
  return total;
}
// CHECK-LABEL: double rnn_grad(
// The cells' tapes: steps x layers x b, before the time loop.
// CHECK:         unfad::tape_buffer<double> [[TAPE:tape_[a-z_0-9]+]]([[NT:n[_0-9]*]] * [[NL:n_[0-9]+]] * [[NB:n_[0-9]+]]);
// CHECK-NOT:     log_state
// CHECK:         for (long [[T:[a-z_0-9]+]] = 0; [[T]] < steps; ++[[T]]) {
// CHECK:           for (long [[L:[a-z_0-9]+]] = 0; [[L]] < layers; ++[[L]]) {
// CHECK:             if (
// CHECK:               for (long [[I:[a-z_0-9]+]] = 0; [[I]] < b; ++[[I]]) {
// CHECK:                 std::exp(
// CHECK:                 [[TAPE]][([[T]] * [[NL]] + [[L]]) * [[NB]] + [[I]]] =
// The backward sweep: the branches' transposed cell loops read the tapes
// at (t, layer, i); no exp, no tanh, no state restored.
// CHECK:         for (long [[TB:[a-z_0-9]+]] = steps - 1; [[TB]] >= 0; --[[TB]]) {
// CHECK-NOT:       std::exp
// CHECK-NOT:       std::tanh
// CHECK-NOT:       {{[ (]}}state[
// CHECK:           for (long [[LB:[a-z_0-9]+]] = layers - 1; [[LB]] >= 0; --[[LB]]) {
// CHECK:             if (
// CHECK-NEXT:          for (long [[IB:[a-z_0-9]+]] = b - 1; [[IB]] >= 0; --[[IB]]) {
// CHECK:                 = tape_{{[a-z_0-9]+}}[([[TB]] * [[NL]] + [[LB]]) * [[NB]] + [[IB]]];
// CHECK:             } else {
// CHECK-NEXT:          for (long {{[a-z_0-9]+}} = b - 1;
// CHECK-NOT:     std::exp
// CHECK-NOT:     std::tanh
// CHECK:         return {{[a-z_0-9]+}};
