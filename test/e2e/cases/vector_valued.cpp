// Vector-valued functions: parameters written through are outputs, checked
// through the vector-Jacobian product (d_out carries the cotangent in).
#include <unfad/unfad.h>

#include <cmath>
#include <vector>

// Summary statistics of x: out[0] = mean, out[1] = mean square, out[2] = sum of sin.
UNFAD_GRADIENT void summary(const double* x, int n, double* out) {
  double s = 0.0;
  double s2 = 0.0;
  double sn = 0.0;
  for (int i = 0; i < n; ++i) {
    s += x[i];
    s2 += x[i] * x[i];
    sn += std::sin(x[i]);
  }
  out[0] = s / n;
  out[1] = s2 / n;
  out[2] = sn;
}

// Elementwise map: y[i] = a * x[i] + exp(-x[i]^2).
UNFAD_GRADIENT void map_axpy(const double* x, int n, double a, double* y) {
  for (int i = 0; i < n; ++i) y[i] = a * x[i] + std::exp(-x[i] * x[i]);
}

// Matrix-vector product y = A x (A row-major m x n) into a std::vector.
UNFAD_GRADIENT void matvec(const std::vector<double>& A, const std::vector<double>& x, std::vector<double>& y) {
  const int n = static_cast<int>(x.size());
  const int m = static_cast<int>(y.size());
  for (int i = 0; i < m; ++i) {
    double s = 0.0;
    for (int j = 0; j < n; ++j) s += A[i * n + j] * x[j];
    y[i] = s;
  }
}

// A value and an output together: returns |x|^2 and writes the normalised x.
UNFAD_GRADIENT double normalize(const double* x, int n, double* unit) {
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += x[i] * x[i];
  const double r = std::sqrt(s);
  for (int i = 0; i < n; ++i) unit[i] = x[i] / r;
  return s;
}

/* e2e
[{"function": "summary", "outputs": {"out": 3},
  "points": [[[0.5, -1.25, 2.0, 0.75], 4], [[1.5, 0.3], 2]],
  "grad_formula": ["[w_out[0]/n + w_out[1]*2*x[i]/n + w_out[2]*cos(x[i]) for i in range(n)]"]},
 {"function": "map_axpy", "outputs": {"y": 5},
  "points": [[[0.5, -1.0, 0.25, 1.5, -0.3], 5, 2.0]],
  "grad_formula": ["[w_y[i]*(a - 2*x[i]*exp(-x[i]**2)) for i in range(n)]",
                   "sum(w_y[i]*x[i] for i in range(n))"]},
 {"function": "matvec", "outputs": {"y": 2},
  "points": [[[1.0, 2.0, -0.5, 0.25, 3.0, 1.5], [0.3, -1.2, 0.8], null],
             [[0.5, -1.0, 2.0, 1.5, 0.25, -0.75], [1.1, 0.4, -0.6]]],
  "grad_formula": ["[w_y[k // 3]*x[k % 3] for k in range(6)]",
                   "[sum(w_y[i]*A[i*3 + j] for i in range(2)) for j in range(3)]"]},
 {"function": "normalize", "outputs": {"unit": 3},
  "points": [[[0.6, -0.8, 1.2], 3], [[2.0, 0.5, -1.0], 3]]}]
*/
