// The objective. Compiled with the unfad clang plugin loaded, this
// translation unit also gets logistic_loss_grad, right after logistic_loss;
// nothing is written to disk and this file stays as is.
#include "logistic.h"

#include <unfad/unfad.h>

#include <cmath>

// log(1 + exp(z)) without overflow.
static double softplus(double z) {
  if (z > 0.0)
    return z + std::log1p(std::exp(-z));
  return std::log1p(std::exp(z));
}

UNFAD_GRADIENT_WRT(w, b)
double logistic_loss(const double* w, double b, const double* X, const double* y, int n, int d,
                     double lambda) {
  double total = 0.0;
  for (int i = 0; i < n; ++i) {
    double z = b;
    for (int j = 0; j < d; ++j)
      z += w[j] * X[i * d + j];
    // -log p(y | z) = softplus(z) - y z
    total += softplus(z) - y[i] * z;
  }
  double reg = 0.0;
  for (int j = 0; j < d; ++j)
    reg += w[j] * w[j];
  return total / n + 0.5 * lambda * reg;
}
