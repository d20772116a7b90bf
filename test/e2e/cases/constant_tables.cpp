// Constant tables as numerical code keeps them: coefficient arrays at
// namespace scope (`static constexpr`, `const`, in a namespace, in an
// anonymous namespace, `std::array`, of rows, of structs), public static data members, integer
// tables used as indices, `static const` tables and values local to a
// function (a helper's `static const double cof[6]`, Numerical Recipes'
// gammln; `static const double c = std::sqrt(2.0)`), a table passed to a
// helper as a pointer and walked by range-based for, constants initialised
// at run time (`const double kSqrt2 = std::sqrt(2.0);`). Each was refused
// before ("arrays are not supported here", "global constant has no constant
// initializer"): bug reports from trying code as it is written.
#include <unfad/unfad.h>

#include <array>
#include <cmath>
#include <cstddef>
#include <vector>

// Gauss-Legendre nodes and weights on [-1, 1], five points.
static constexpr double kNodes[] = {-0.9061798459386640, -0.5384693101056831, 0.0, 0.5384693101056831,
                                    0.9061798459386640};
static constexpr double kWeights[5] = {0.2369268850561891, 0.4786286704993665, 0.5688888888888889,
                                       0.4786286704993665, 0.2369268850561891};

namespace rk {
const double b[4] = {1.0 / 6.0, 1.0 / 3.0, 1.0 / 3.0, 1.0 / 6.0};
constexpr std::array<double, 4> c{0.0, 0.5, 0.5, 1.0};
} // namespace rk

namespace {
const int kPerm[4] = {2, 0, 3, 1};
}

// Initialised at run time (before main): read by name all the same.
const double kSqrt2 = std::sqrt(2.0);
const double kRotation[2] = {std::cos(0.5), std::sin(0.5)};

struct Stencil {
  static constexpr double w[3] = {1.0, -2.0, 1.0};
  static constexpr std::array<double, 2> scale{0.5, 2.0};
};

// The integral of exp(-k t^2) cos(w t) over [a, b], by Gauss-Legendre on
// `panels` panels.
UNFAD_GRADIENT double quadrature(double k, double w, double a, double b, int panels) {
  const double h = (b - a) / panels;
  double s = 0.0;
  for (int p = 0; p < panels; ++p) {
    const double mid = a + (p + 0.5) * h;
    for (int q = 0; q < 5; ++q) {
      const double t = mid + 0.5 * h * kNodes[q];
      s += kWeights[q] * std::exp(-k * t * t) * std::cos(w * t);
    }
  }
  return 0.5 * h * s;
}

// Classic RK4 for y' = -a y + sin(t y) from its Butcher tableau: a table of
// rows and two tables in a namespace (a C array and a std::array).
namespace rk {
constexpr double a[4][4] = {{0, 0, 0, 0}, {0.5, 0, 0, 0}, {0, 0.5, 0, 0}, {0, 0, 1.0, 0}};
}
UNFAD_GRADIENT double rk4(double y0, double a, double dt, int steps) {
  double y = y0, t = 0.0;
  for (int s = 0; s < steps; ++s) {
    double k[4];
    for (int i = 0; i < 4; ++i) {
      double yi = y;
      for (int j = 0; j < i; ++j) yi += dt * rk::a[i][j] * k[j];
      const double ti = t + rk::c[i] * dt;
      k[i] = -a * yi + std::sin(ti * yi);
    }
    for (int i = 0; i < 4; ++i) y += dt * rk::b[i] * k[i];
    t += dt;
  }
  return y;
}

// A table walked by a helper through a pointer, and by range-based for.
double weighted(const double* x, const double* w, int n) {
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += w[i] * x[i];
  return s;
}
UNFAD_GRADIENT double second_differences(const double* x, int n) {
  double s = 0.0;
  for (int i = 1; i + 1 < n; ++i) {
    const double d = weighted(x + i - 1, Stencil::w, 3);
    s += d * d * Stencil::scale[i % 2];
  }
  double m = 0.0;
  for (double c : rk::c) m += c * x[0];
  return s + m * m;
}

// An integer table choosing which element each term reads; constants
// computed at run time.
UNFAD_GRADIENT double permuted(const double* x) {
  double s = 0.0;
  for (int i = 0; i < 4; ++i) s += x[kPerm[i]] * x[i] + std::sin(x[kPerm[kPerm[i]]]);
  const double u = kRotation[0] * x[0] - kRotation[1] * x[1];
  return s + kSqrt2 * u * u;
}

// A table of structs: point charges.
struct Site {
  double x, y, q;
};
const Site kSites[3] = {{0.0, 0.0, 1.0}, {1.0, 0.5, -2.0}, {0.5, 1.5, 0.5}};
UNFAD_GRADIENT double potential(double px, double py) {
  double v = 0.0;
  for (int i = 0; i < 3; ++i) {
    const double dx = px - kSites[i].x, dy = py - kSites[i].y;
    v += kSites[i].q / std::sqrt(dx * dx + dy * dy + 0.1);
  }
  for (const Site& s : kSites) v += 0.01 * s.q * px * py;
  return v;
}

// Numerical Recipes' log-gamma (Lanczos): a static const table local to a
// helper, and a static const value computed once (the same at every call).
double gammln(double xx) {
  static const double cof[6] = {76.18009172947146,  -86.50532032941677,    24.01409824083091,
                                -1.231739572450155, 0.1208650973866179e-2, -0.5395239384953e-5};
  static const double sqrt2pi = std::sqrt(2.0 * std::acos(-1.0));
  double x = xx, y = xx;
  double tmp = x + 5.5;
  tmp -= (x + 0.5) * std::log(tmp);
  double ser = 1.000000000190015;
  for (int j = 0; j < 6; ++j) ser += cof[j] / ++y;
  return -tmp + std::log(sqrt2pi * ser / x);
}
UNFAD_GRADIENT double log_beta(double a, double b) { return gammln(a) + gammln(b) - gammln(a + b); }

/* e2e
[{"function": "quadrature", "points": [[0.7, 1.3, -0.5, 1.5, 3], [2.0, 0.25, 0.0, 1.0, 1]]},
 {"function": "rk4", "points": [[1.0, 0.8, 0.1, 5], [-0.5, 1.5, 0.05, 3]]},
 {"function": "second_differences", "points": [[[0.5, -1.25, 2.0, 0.3, 1.1], 5], [[1.5, 0.25, -0.75], 3]]},
 {"function": "permuted", "points": [[[0.5, -1.25, 2.0, 0.3]]]},
 {"function": "potential", "points": [[0.3, -0.4], [1.2, 0.9]]},
 {"function": "log_beta", "points": [[1.5, 2.5], [0.7, 3.2]]}]
*/
