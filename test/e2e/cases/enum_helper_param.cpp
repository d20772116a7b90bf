// An enum-typed parameter of a helper (a scoped and an unscoped enum): the
// generated pullback declares it with the enum's type, so the gradient
// calls it with the enum value as the primal does.
#include <unfad/unfad.h>

#include <cmath>

enum class Activation { Identity, Tanh, Softplus };
enum Norm { L1, L2 };

namespace nn {
enum class Pool { Sum, Mean };
}

static double activate(double x, Activation a) {
  switch (a) {
  case Activation::Identity: return x;
  case Activation::Tanh: return std::tanh(x);
  case Activation::Softplus: return std::log1p(std::exp(x));
  }
  return x;
}

static double norm(double x, double y, Norm n) { return n == L1 ? std::fabs(x) + std::fabs(y) : std::sqrt(x * x + y * y); }

static double pool(double a, double b, nn::Pool p) { return p == nn::Pool::Sum ? a + b : 0.5 * (a + b); }

UNFAD_GRADIENT double layer(double x, double y, double w) {
  const double h = activate(w * x, Activation::Tanh) + activate(y, Activation::Softplus);
  return pool(norm(h, w * y, L2), norm(x, h, L1), nn::Pool::Mean);
}

/* e2e
[{"function": "layer",
  "points": [[0.5, -0.25, 1.5], [-1.0, 0.75, 0.5]]}]
*/
