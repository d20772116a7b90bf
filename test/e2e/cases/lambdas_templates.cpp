// Function templates taking callables: a lambda (created in the call or held
// by a local, capturing by value or by reference, writing a captured
// accumulator), a function's name, a generic lambda, a template passing its
// callable on to another.
#include <unfad/unfad.h>

#include <cmath>

template <class F>
double integrate(F f, double a, double b, int n) {
  const double h = (b - a) / n;
  double s = 0.5 * (f(a) + f(b));
  for (int i = 1; i < n; ++i) s += f(a + i * h);
  return s * h;
}

template <class F>
void repeat(int n, const F& body) {
  for (int i = 0; i < n; ++i) body(i);
}

template <class F>
double twice_integral(F f, double b) {
  return 2.0 * integrate(f, 0.0, b, 5);
}

static double gauss(double t) { return std::exp(-t * t); }

// a functor: plain members and a call operator
struct Gaussian {
  double mu, sigma;
  double operator()(double t) const {
    const double z = (t - mu) / sigma;
    return std::exp(-0.5 * z * z) / sigma;
  }
};

UNFAD_GRADIENT double integrals(double k, double b) {
  const double i1 = integrate([k](double t) { return std::sin(k * t); }, 0.0, b, 8);
  auto g = [&](double t) { return k * t * t; };
  const double i2 = integrate(g, 0.0, 1.0, 4);
  const double i3 = integrate(gauss, 0.0, b, 6);
  const double i4 = twice_integral([](auto t) { return t * t * t; }, b);
  const Gaussian bell{k, 0.5 + b * b};
  const double i5 = integrate(bell, -1.0, 1.0, 6) + integrate(Gaussian{b, 2.0}, 0.0, k, 3);
  return i1 + i2 * i3 + i4 + i5;
}

UNFAD_GRADIENT double repeated(const double* x, int n, double w) {
  double s = 0.0;
  repeat(n, [&](int i) { s += w * x[i] * x[i]; });
  return s;
}

/* e2e
[{"function": "integrals", "points": [[0.7, 1.5], [-1.2, 0.8]]},
 {"function": "repeated", "points": [[[0.5, -1.25, 2.0], 3, 1.5]],
  "value_formula": "w * sum(v*v for v in x[:n])"}]
*/
