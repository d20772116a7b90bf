// A recurrent network whose hidden state is an array rewritten every step.
// The forward loop saves the state per step (memory linear in the steps);
// each backward step restores it, and the activations tanh(a) its inner
// loop tapes while recomputing the step are read back (tanh' = 1 - tanh²)
// instead of recomputing the matrix-vector product and the tanh a second
// time (one allocation for all steps). The save/overwrite/restore of an
// element with nothing reading it in between is dead and goes, so the
// adjoint sweeps only accumulate (d_W and d_h in one forward-running loop).
// RUN: %unfad %s -- -std=c++17 -I%unfad_include > %t.out
// RUN: grep -v '^// *[A-Z-]*:' %t.out | FileCheck %s
#include <unfad/unfad.h>

#include <cmath>
#include <vector>

UNFAD_GRADIENT double rnn_loss(const double* W, const double* U, const double* b, const double* v, const double* x,
                               int H, int T) {
  std::vector<double> h(H, 0.0);
  std::vector<double> hn(H, 0.0);
  for (int t = 0; t < T; ++t) {
    for (int j = 0; j < H; ++j) {
      double a = b[j] + U[j] * x[t];
      for (int k = 0; k < H; ++k) a += W[j * H + k] * h[k];
      hn[j] = std::tanh(a);
    }
    for (int j = 0; j < H; ++j) h[j] = hn[j];
  }
  double loss = 0.0;
  for (int j = 0; j < H; ++j) loss += v[j] * h[j];
  return loss;
}
// CHECK-LABEL: double rnn_loss_grad(
// CHECK-NOT:     old_
// CHECK:         unfad::tape_buffer<double> [[TAPE:tape_h]](n * H);
// The backward loop's scratch tapes are allocated once, before it.
// CHECK:         unfad::tape_buffer<double> [[Y:tape_t[_0-9]*]](
// CHECK:         for (long [[T:[a-z_0-9]+]] = T - 1; [[T]] >= 0; --[[T]]) {
// CHECK-NOT:       {{std::vector|unfad::tape_buffer}}
// (hn is not refilled: nothing in the sweep reads it; dead-arrays)
// CHECK-NOT:         hn[
// CHECK:             [[Y]][[[J:[a-z_0-9]+]]] = std::tanh(
// CHECK:           const double [[YJ:[a-z_0-9]+]] = [[Y]][
// CHECK-NOT:       tanh
// CHECK:           const double [[DA:[a-z_0-9]+]] = (1.0 - [[YJ]] * [[YJ]]) *
// CHECK:           for (long [[K:[a-z_0-9]+]] = 0; [[K]] < H; ++[[K]]) {
// CHECK-DAG:         d_h[[[K]]] += W[
// CHECK-DAG:         d_W[{{.*}}] += h[[[K]]] *
// CHECK-NOT:     old_
// CHECK:         return loss;
