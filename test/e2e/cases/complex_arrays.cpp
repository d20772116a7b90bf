// Arrays of std::complex<double>: a std::vector of them and a C array, read
// and written element by element (whole, compound, .real()/.imag()).
// References: Parseval's identity for the DFT's energy (hand-derived) and a
// hand-derived formula for the rotations, besides finite differences.
#include <unfad/unfad.h>

#include <cmath>
#include <complex>
#include <vector>

// sum_j |X_j|^2 with X_j = sum_k x_k e^{-2 pi i jk/n}; by Parseval, n sum_k x_k^2.
UNFAD_GRADIENT double dft_energy(const double* x, int n) {
  std::vector<std::complex<double>> X(n);
  for (int j = 0; j < n; ++j)
    for (int k = 0; k < n; ++k) X[j] = X[j] + x[k] * std::polar(1.0, -2.0 * M_PI * j * k / n);
  double s = 0.0;
  for (int j = 0; j < n; ++j) s += std::norm(X[j]);
  return s;
}

// Three points of the plane rotated by t, 2t, 3t; the weighted real parts.
UNFAD_GRADIENT double rotate_sum(double a, double b, double t) {
  std::complex<double> z[3] = {{a, b}, {b, a}, {a, -b}};
  for (int i = 0; i < 3; ++i) z[i] = z[i] * std::exp(std::complex<double>(0.0, t * (i + 1)));
  double s = 0.0;
  for (int i = 0; i < 3; ++i) s += z[i].real() * (i + 1);
  return s;
}

/* e2e
[{"function": "dft_energy",
  "points": [[[0.3, -0.4, 0.2], 3], [[1.0, 0.5, -0.25, 0.75, 2.0], 5]],
  "value_formula": "n * sum(v * v for v in x)",
  "grad_formula": ["[2 * n * v for v in x]"]},
 {"function": "rotate_sum",
  "points": [[0.5, -1.25, 0.3], [1.5, 0.25, -1.1]],
  "value_formula": "a*cos(t) - b*sin(t) + 2*(b*cos(2*t) - a*sin(2*t)) + 3*(a*cos(3*t) + b*sin(3*t))",
  "grad_formula": ["cos(t) - 2*sin(2*t) + 3*cos(3*t)",
                   "-sin(t) + 2*cos(2*t) + 3*sin(3*t)",
                   "-a*sin(t) - b*cos(t) - 4*(b*sin(2*t) + a*cos(2*t)) + 9*(b*cos(3*t) - a*sin(3*t))"]}]
*/
