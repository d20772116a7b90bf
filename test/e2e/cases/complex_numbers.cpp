// std::complex<double> as two reals: construction, + - * / with complex and
// real operands, compound assignment, .real()/.imag() read and set, the
// functions of <complex>, helpers taking and returning complex values. The
// gradient is taken with respect to the real and imaginary parts.
#include <unfad/unfad.h>

#include <cmath>
#include <complex>

using cd = std::complex<double>;

static cd step(const cd &z, cd c) { return z * z + c; }
static double energy(cd z) { return std::norm(z) + std::arg(z); }

UNFAD_GRADIENT double mandel(const double *x) {
  std::complex<double> z(x[0], x[1]);
  const cd c{x[2], -0.25};
  for (int i = 0; i < 3; ++i) z = step(z, c) * 0.5;
  return std::abs(z) + std::real(std::exp(z));
}

UNFAD_GRADIENT double arithmetic(double a, double b, double c, double d) {
  cd u(a, b), v(c, d);
  cd w = u / v + 2.0 * u - v / 3.0 + (-u) * v;
  w += u;
  w *= v;
  w -= 1.5;
  w /= cd(0.5, 1.0);
  w /= 2.0;
  cd q = 1.0 / v + (u - 2.0) + (3.0 - v);
  q.real(q.real() * a);
  q.imag(q.imag() + b * c);
  bool same = (u == v) || !(u != u);
  return w.real() * w.imag() + std::imag(q) + (same ? energy(q) : 0.0);
}

UNFAD_GRADIENT double functions(double a, double b, double r, double t) {
  cd z{a, b};
  cd p = std::polar(r, t);
  cd s = std::sqrt(z) + std::sqrt(std::conj(z) * -1.0);
  cd l = std::log(z * p);
  cd e = std::exp(l / 2.0) + std::sin(z) * std::cos(p);
  return s.real() + 0.5 * s.imag() + l.imag() + e.real() - e.imag() + std::abs(p) * std::arg(z) + std::norm(e);
}

UNFAD_GRADIENT double modulus(double re, double im) { return std::abs(cd(re, im)); }

/* e2e
[{"function": "mandel",
  "points": [[[0.3, -0.4, 0.2]], [[-0.6, 0.5, 0.45]], [[0.1, 0.9, -0.3]]]},
 {"function": "arithmetic",
  "points": [[0.5, -1.25, 2.0, 0.75], [1.5, 0.25, -0.5, 1.1]]},
 {"function": "functions",
  "points": [[0.5, -1.25, 2.0, 0.75], [1.5, 0.25, 0.5, 1.1], [-0.7, 0.4, 1.3, -2.0]]},
 {"function": "modulus",
  "points": [[3.0, -4.0], [-0.5, 1.2]],
  "expect": [{"at": [0.0, 0.0], "value": 0, "grad": [0, 0]},
             {"at": [3.0, 4.0], "value": 5, "grad": [0.6, 0.8]}]}]
*/
