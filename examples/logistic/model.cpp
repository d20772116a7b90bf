// The objective, written with a small class and a lambda. Compiled with the
// unfad clang plugin loaded, this translation unit also gets
// logistic_loss_grad, right after logistic_loss; nothing is written to disk
// and this file stays as is.
#include "logistic.h"

#include <unfad/unfad.h>

#include <cmath>
#include <numeric>

namespace {

// log(1 + exp(z)) without overflow.
double softplus(double z) { return z > 0.0 ? z + std::log1p(std::exp(-z)) : std::log1p(std::exp(z)); }

// The L2 penalty 0.5 * lambda * |w|^2, as a small function object.
class L2Penalty {
public:
  explicit L2Penalty(double lambda) : lambda(lambda) {}
  double operator()(const double* w, int d) const { return 0.5 * lambda * std::inner_product(w, w + d, w, 0.0); }

  double lambda;
};

} // namespace

UNFAD_GRADIENT_WRT(w, b)
double logistic_loss(const double* w, double b, const double* X, const double* y, int n, int d,
                     double lambda) {
  // -log p(y_i | x_i) = softplus(z) - y_i z, with z = w . x_i + b
  auto negative_log_likelihood = [&](int i) {
    const double* x = X + i * d;
    const double z = std::inner_product(w, w + d, x, b);
    return softplus(z) - y[i] * z;
  };
  double total = 0.0;
  for (int i = 0; i < n; ++i)
    total += negative_log_likelihood(i);
  const L2Penalty penalty(lambda);
  return total / n + penalty(w, d);
}
