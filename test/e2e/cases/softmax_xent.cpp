// Softmax cross-entropy through a local buffer: buf is written in one loop
// and read (and rescaled in place) in later loops.
#include <unfad/unfad.h>

#include <cmath>
#include <vector>

UNFAD_GRADIENT double softmax_xent(const double* logits, const double* target, int n) {
  double mx = logits[0];
  for (int i = 1; i < n; ++i) mx = std::fmax(mx, logits[i]);
  std::vector<double> buf(n);
  double z = 0.0;
  for (int i = 0; i < n; ++i) {
    buf[i] = std::exp(logits[i] - mx);
    z += buf[i];
  }
  for (int i = 0; i < n; ++i) buf[i] /= z;
  double loss = 0.0;
  for (int i = 0; i < n; ++i) loss -= target[i] * std::log(buf[i]);
  return loss;
}

/* e2e
{"function": "softmax_xent",
 "points": [[[0.2, -1.0, 1.5, 0.7], [0.1, 0.2, 0.6, 0.1], 4],
            [[2.0, 0.5, -0.5], [0.0, 1.0, 0.0], 3],
            [[-0.4, 0.9, 0.3, 1.2, -1.1], [0.3, 0.1, 0.2, 0.25, 0.15], 5]],
 "grad_formula": [
   "[sum(target)*exp(l)/sum(exp(u) for u in logits) - target[i] for i, l in enumerate(logits)]",
   "[-(l - log(sum(exp(u) for u in logits))) for l in logits]"]}
*/
