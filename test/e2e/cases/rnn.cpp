// A small recurrent network: hidden state h (H values) rewritten every step,
// h <- tanh(W h + U x_t + b), computed into a second local array and copied
// back; the loss is v . h after T steps. W is H x H and U is H x D, row-major;
// xs holds T inputs of D values.
#include <unfad/unfad.h>

#include <cmath>
#include <vector>

UNFAD_GRADIENT double rnn_loss(const double* W, const double* U, const std::vector<double>& b,
                               const std::vector<double>& v, const std::vector<double>& xs, int H, int D,
                               int T) {
  std::vector<double> h(H, 0.0);
  std::vector<double> hn(H);
  for (int t = 0; t < T; ++t) {
    for (int j = 0; j < H; ++j) {
      double a = b[j];
      for (int k = 0; k < H; ++k) a += W[j * H + k] * h[k];
      for (int k = 0; k < D; ++k) a += U[j * D + k] * xs[t * D + k];
      hn[j] = std::tanh(a);
    }
    for (int j = 0; j < H; ++j) h[j] = hn[j];
  }
  double loss = 0.0;
  for (int j = 0; j < H; ++j) loss += v[j] * h[j];
  return loss;
}

/* e2e
{"function": "rnn_loss",
 "points": [
   [[0.5, -0.3, 0.2, 0.1, 0.4, -0.6, -0.2, 0.3, 0.7],
    [0.8, -0.4, 0.3, 0.9, -0.5, 0.2],
    [0.1, -0.2, 0.05],
    [1.0, -0.7, 0.5],
    [0.5, -1.0, 0.3, 0.8, -0.6, 0.2, 1.1, -0.4, 0.0, 0.9, -0.3, -0.7],
    3, 2, 6],
   [[0.4, -0.2, 0.1, 0.3, -0.1, 0.5, 0.2, -0.3, 0.6, 0.1, -0.4, 0.2, 0.3, 0.2, -0.5, 0.4],
    [0.7, -0.3, 0.5, 0.6, -0.8, 0.2, 0.1, 0.4],
    [0.05, -0.1, 0.2, 0.0],
    [0.6, -0.9, 0.4, 1.2],
    [0.3, -0.5, 0.9, 0.1, -0.7, 0.4, 0.2, 0.8, -0.2, -0.6, 0.5, 0.5, 1.0, -0.1, -0.9, 0.3],
    4, 2, 8]]}
*/
