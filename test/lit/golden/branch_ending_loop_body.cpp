// A stack of recurrent layers whose layer loop picks each layer's input with
// an `if` on the layer's index (GradBench's lstm shape). In the layer loop's
// J^T the `if` ending its body is not run forward (and undone) before its
// own J^T, which recomputes the branch taken from the memory it found: each
// backward step evaluates a layer's tanh twice (the step's recomputation,
// then the branch's taping pass), not three times. The tapes of the
// branches' J^T are allocated once, before the backward loop, not in every
// iteration that takes the branch (hoist-invariants).
// (By default the forward sweep now tapes this nest per (t, layer, i) and
// the backward sweep recomputes nothing: lstm_layer_nest_taped.cpp. This
// pins the recomputing J^T, which nests that cannot be taped still get.)
// RUN: %unfad %s --tape-nested-loops=false -- -std=c++17 -I%unfad_include > %t.out
// RUN: grep -v '^// *[A-Z-]*:' %t.out | FileCheck %s
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
    for (int i = 0; i < b; ++i) total += h[(layers - 1) * b + i];
  }
  return total;
}
// CHECK-LABEL: double stacked_grad(
// CHECK:         unfad::tape_buffer<double> [[TAPE:tape_t[_0-9]*]](
// CHECK:         for (long [[T:t_[0-9]+]] = steps - 1; [[T]] >= 0; --[[T]]) {
// CHECK-NOT:       new
// The step's recomputation (both branches' code):
// CHECK-COUNT-2:   std::tanh(
// CHECK-NOT:       new
// CHECK:           for (long [[L:l_[0-9]+]] = layers - 1; [[L]] >= 0; --[[L]]) {
// CHECK-NOT:         std::tanh(
// CHECK:             const bool [[C:c_[0-9]+]] = [[L]] == 0;
// CHECK-NEXT:        if ([[C]]) {
// CHECK-NOT:           new
// CHECK:               const double [[Y:t_[0-9]+]] = std::tanh(
// CHECK:               [[TAPE]][[[I:i_[0-9_]+]]] = [[Y]];
// CHECK-NOT:           new
// CHECK:             } else {
// CHECK-NOT:           new
// CHECK:               std::tanh(
// CHECK-NOT:       std::tanh(
// CHECK-NOT:       new
// CHECK:       // unfad:end stacked_grad
