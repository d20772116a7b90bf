// Arrays of arrays as (read-only) parameters: a ragged
// std::vector<std::vector<double>>, a C matrix const double A[3][3] (the
// adjoint is double (*d_A)[3]), std::array<std::array<double, 2>, 2>, rows
// passed to a helper, and range-for loops over rows.
#include <unfad/unfad.h>

#include <array>
#include <cmath>
#include <cstddef>
#include <vector>

// Sum of squares over possibly ragged rows.
UNFAD_GRADIENT double frob(const std::vector<std::vector<double>>& A) {
  double s = 0.0;
  for (std::size_t i = 0; i < A.size(); ++i) {
    for (std::size_t j = 0; j < A[i].size(); ++j) s += A[i][j] * A[i][j];
  }
  return s;
}

// x^T A x.
UNFAD_GRADIENT double quad(const double A[3][3], const double* x) {
  double s = 0.0;
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) s += x[i] * A[i][j] * x[j];
  }
  return s;
}

static double dot(const std::vector<double>& a, const std::vector<double>& b) {
  double s = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
  return s;
}

// Sum of tanh of the rows' dot products with w.
UNFAD_GRADIENT double rowdots(const std::vector<std::vector<double>>& X, const std::vector<double>& w) {
  double s = 0.0;
  for (std::size_t i = 0; i < X.size(); ++i) s += std::tanh(dot(X[i], w));
  return s;
}

// trace(M * M).
UNFAD_GRADIENT double trace_sq(const std::array<std::array<double, 2>, 2>& M) {
  double s = 0.0;
  for (std::size_t i = 0; i < 2; ++i) {
    for (std::size_t j = 0; j < 2; ++j) s += M[i][j] * M[j][i];
  }
  return s;
}

// Sum of cubes, with range-for loops over the rows and their elements.
UNFAD_GRADIENT double cubes(const std::vector<std::vector<double>>& X) {
  double s = 0.0;
  for (const auto& row : X) {
    for (double v : row) s += v * v * v;
  }
  return s;
}

/* e2e
[{"function": "frob",
  "points": [[[[1.0, -2.0, 0.5], [3.0]]],
             [[[0.25], [1.5, -0.75], [2.0, 1.0, -1.25]]]],
  "value_formula": "sum(v*v for row in A for v in row)",
  "grad_formula": ["[[2*v for v in row] for row in A]"]},
 {"function": "quad",
  "points": [[[[1.0, 0.5, -0.25], [2.0, -1.0, 0.75], [0.3, 1.5, 2.5]], [0.5, -1.25, 2.0]],
             [[[-0.5, 1.25, 0.0], [0.8, 2.0, -1.5], [1.1, -0.4, 0.6]], [1.5, 0.25, -0.75]]],
  "value_formula": "sum(x[i]*A[i][j]*x[j] for i in range(3) for j in range(3))",
  "grad_formula": ["[[x[i]*x[j] for j in range(3)] for i in range(3)]",
                   "[sum((A[i][j] + A[j][i])*x[j] for j in range(3)) for i in range(3)]"]},
 {"function": "rowdots",
  "points": [[[[0.5, -1.0, 0.25], [1.5, 0.75, -0.5], [-0.3, 0.2, 1.1]], [0.4, -0.6, 0.8]],
             [[[1.0, 2.0], [-0.5, 0.25]], [0.3, -0.2]]],
  "value_formula": "sum(tanh(sum(a*b for a, b in zip(row, w))) for row in X)",
  "grad_formula": [
    "[[(1 - tanh(sum(a*b for a, b in zip(row, w)))**2)*w[j] for j in range(len(row))] for row in X]",
    "[sum((1 - tanh(sum(a*b for a, b in zip(row, w)))**2)*row[j] for row in X) for j in range(len(w))]"]},
 {"function": "trace_sq",
  "points": [[[[1.0, 2.0], [-0.5, 1.5]]], [[[0.25, -1.25], [3.0, -0.75]]]],
  "value_formula": "sum(M[i][j]*M[j][i] for i in range(2) for j in range(2))",
  "grad_formula": ["[[2*M[j][i] for j in range(2)] for i in range(2)]"]},
 {"function": "cubes",
  "points": [[[[1.0, -0.5], [2.0, 0.25, -1.5]]], [[[0.75, 1.25, -2.0], [], [0.5]]]],
  "value_formula": "sum(v**3 for row in X for v in row)",
  "grad_formula": ["[[3*v*v for v in row] for row in X]"]}]
*/
