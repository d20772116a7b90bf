// The objective: mean negative log-likelihood of a diagonal-covariance
// Gaussian mixture. Only theta is active (UNFAD_GRADIENT_WRT); the data are
// constants. The CMake step (unfad_generate) compiles a generated copy of
// this file with gmm::nll_grad right after gmm::nll; this file stays as is.
#include "gmm.h"

#include <unfad/unfad.h>

#include <cmath>

namespace gmm {

// log N((x0, x1) | mu_c, diag(sigma_c^2)) for component c.
static double log_density(const double* theta, int c, double x0, double x1) {
  const double ls0 = theta[3 * K + 2 * c];
  const double ls1 = theta[3 * K + 2 * c + 1];
  const double z0 = (x0 - theta[K + 2 * c]) * std::exp(-ls0);
  const double z1 = (x1 - theta[K + 2 * c + 1]) * std::exp(-ls1);
  return -0.5 * (z0 * z0 + z1 * z1) - ls0 - ls1 - 1.8378770664093453; // log(2 pi)
}

UNFAD_GRADIENT_WRT(theta) double nll(const double* theta, const double* x, int n) {
  // log of the softmax weights
  double amax = theta[0];
  for (int c = 1; c < K; ++c)
    amax = std::fmax(amax, theta[c]);
  double asum = 0.0;
  for (int c = 0; c < K; ++c)
    asum += std::exp(theta[c] - amax);
  const double log_norm = amax + std::log(asum);

  double total = 0.0;
  for (int i = 0; i < n; ++i) {
    const double x0 = x[2 * i];
    const double x1 = x[2 * i + 1];
    // log-sum-exp over the components, shifted by the largest term
    double m = -1e300;
    for (int c = 0; c < K; ++c) {
      const double l = theta[c] + log_density(theta, c, x0, x1);
      if (l > m)
        m = l;
    }
    double s = 0.0;
    for (int c = 0; c < K; ++c)
      s += std::exp(theta[c] + log_density(theta, c, x0, x1) - m);
    total += m + std::log(s) - log_norm;
  }
  return -total / n;
}

} // namespace gmm
