// Negative log-likelihood of an isotropic Gaussian mixture (n points in d
// dimensions, k components) with softmax mixture weights: a helper taking
// arrays computes one component's log-density, and a log-sum-exp over the
// components makes each point's log-likelihood.
#include <unfad/unfad.h>

#include <cmath>

// log N(x_i | mu_c, sigma_c^2 I) without the constant, for the point at
// x[xo..xo+d) and the centre at mu[mo..mo+d).
static double log_normal(const double* x, int xo, const double* mu, int mo, double log_sigma, int d) {
  const double inv_var = std::exp(-2.0 * log_sigma);
  double q = 0.0;
  for (int j = 0; j < d; ++j) {
    const double z = x[xo + j] - mu[mo + j];
    q += z * z;
  }
  return -0.5 * q * inv_var - d * log_sigma;
}

UNFAD_GRADIENT double mixture_nll(const double* x, const double* mu, const double* log_sigma,
                                  const double* alpha, int n, int k, int d) {
  // log of the softmax weights
  double amax = alpha[0];
  for (int c = 1; c < k; ++c) amax = std::fmax(amax, alpha[c]);
  double asum = 0.0;
  for (int c = 0; c < k; ++c) asum += std::exp(alpha[c] - amax);
  const double log_norm = amax + std::log(asum);

  double nll = 0.0;
  for (int i = 0; i < n; ++i) {
    double m = -1e300;
    for (int c = 0; c < k; ++c) {
      const double l = alpha[c] - log_norm + log_normal(x, i * d, mu, c * d, log_sigma[c], d);
      if (l > m) m = l;
    }
    double s = 0.0;
    for (int c = 0; c < k; ++c) {
      s += std::exp(alpha[c] - log_norm + log_normal(x, i * d, mu, c * d, log_sigma[c], d) - m);
    }
    nll -= m + std::log(s);
  }
  return nll;
}

/* e2e
{"function": "mixture_nll",
 "points": [
   [[0.5, 1.0, -1.2, 0.3, 2.1, -0.4, 0.0, 0.8],
    [0.0, 0.5, -1.0, 0.0, 2.0, 0.0],
    [0.1, -0.2, 0.3],
    [0.2, -0.3, 0.5],
    4, 3, 2],
   [[0.2, -0.5, 1.4, 1.1, 0.7, -0.9],
    [0.0, 1.0],
    [0.25, -0.1],
    [0.4, -0.2],
    6, 2, 1]]}
*/
