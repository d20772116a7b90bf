// Outputs that are arrays of arrays (a Jacobian, a product, a rotation matrix,
// rows handed to a helper): written before they are read, element by
// element or through a row. Checked against finite differences.
#include <unfad/unfad.h>
#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

using Mat3 = std::array<std::array<double, 3>, 3>;

// A Jacobian written element by element.
UNFAD_GRADIENT void jacobian(const std::vector<double>& x, std::vector<std::vector<double>>& J) {
  const std::size_t n = x.size();
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) J[i][j] = i == j ? std::exp(x[i]) : x[i] * x[j];
}

// A product accumulated into the output: zeroed, then added into.
UNFAD_GRADIENT void matmul(const std::vector<std::vector<double>>& A, const std::vector<std::vector<double>>& B,
                           std::vector<std::vector<double>>& C) {
  for (std::size_t i = 0; i < A.size(); ++i)
    for (std::size_t j = 0; j < B[0].size(); ++j) {
      C[i][j] = 0;
      for (std::size_t k = 0; k < B.size(); ++k) C[i][j] += A[i][k] * B[k][j];
    }
}

static void fill_row(std::vector<double>& row, double t) {
  for (std::size_t j = 0; j < row.size(); ++j) row[j] = std::sin(t * (j + 1));
}
// Rows handed to a helper that writes them.
UNFAD_GRADIENT double rows_by_helper(const std::vector<double>& t, std::vector<std::vector<double>>& M) {
  double s = 0;
  for (std::size_t i = 0; i < t.size(); ++i) {
    fill_row(M[i], t[i]);
    s += t[i] * t[i];
  }
  return s;
}

// Range-for over the output's rows, and a reference to a row.
UNFAD_GRADIENT void outer_rows(const std::vector<double>& a, const std::vector<double>& b,
                               std::vector<std::vector<double>>& M) {
  std::size_t i = 0;
  for (auto& row : M) {
    for (std::size_t j = 0; j < row.size(); ++j) row[j] = a[i] * b[j];
    ++i;
  }
  auto& last = M.back();
  last[0] += std::cos(a[0]);
}

// A rotation matrix returned through a reference to a fixed table.
UNFAD_GRADIENT void rotation(double t, double s, Mat3& R) {
  R = {};
  R[0][0] = std::cos(t) * s; R[0][1] = -std::sin(t);
  R[1][0] = std::sin(t); R[1][1] = std::cos(t) * s;
  R[2][2] = s;
}

// A C array of rows with a runtime row count.
UNFAD_GRADIENT void features(const double* x, int n, double (*F)[3]) {
  for (int i = 0; i < n; ++i) {
    F[i][0] = x[i];
    F[i][1] = x[i] * x[i];
    F[i][2] = std::tanh(x[i]);
  }
}
// Written whole, then read back (by range-for and by element) for the value.
UNFAD_GRADIENT double written_then_read(const std::vector<double>& x, std::vector<std::vector<double>>& J) {
  for (std::size_t i = 0; i < x.size(); ++i)
    for (std::size_t j = 0; j < x.size(); ++j) J[i][j] = x[i] * std::sin(x[j]);
  double s = 0;
  for (const auto& row : J)
    for (double v : row) s += v * v;
  return s + J[1][2] * J[2][1];
}

// A 2x2 output written in straight-line code, its determinant returned.
UNFAD_GRADIENT double determinant(double a, double b, double (*F)[2]) {
  F[0][0] = a * b;
  F[0][1] = a + b;
  F[1][0] = std::sin(a);
  F[1][1] = std::cos(b);
  return F[0][0] * F[1][1] - F[0][1] * F[1][0];
}
// Rows zeroed by std::fill, then a banded Jacobian written element by element.
UNFAD_GRADIENT void banded(const std::vector<double>& x, std::vector<std::vector<double>>& J) {
  for (auto& row : J) std::fill(row.begin(), row.end(), 0.0);
  for (std::size_t i = 0; i < x.size(); ++i) {
    J[i][i] = std::exp(x[i]);
    if (i + 1 < x.size()) J[i][i + 1] = x[i] * x[i + 1];
  }
}

// A row written whole by std::transform.
UNFAD_GRADIENT void outer_by_transform(const std::vector<double>& x, std::vector<std::vector<double>>& J) {
  for (std::size_t i = 0; i < x.size(); ++i) {
    std::fill(J[i].begin(), J[i].end(), 0.0);
    std::transform(x.begin(), x.end(), J[i].begin(), [&](double v) { return v * std::sin(x[i]); });
  }
}
/* e2e
[{"function": "jacobian", "points": [[[0.3, -1.2, 0.8]]], "outputs": {"J": [3, 3]}},
 {"function": "matmul", "points": [[[[1, 2], [3, -1], [0.5, 2]], [[0.3, -1.2, 2.0], [1.0, 0.5, -0.7]]]], "outputs": {"C": [3, 3]}},
 {"function": "rows_by_helper", "points": [[[0.3, -1.2, 0.8]]], "outputs": {"M": [3, 4]}},
 {"function": "outer_rows", "points": [[[0.3, -1.2], [1.0, 0.5, 2.0]]], "outputs": {"M": [2, 3]}},
 {"function": "rotation", "points": [[0.4, 1.3]], "outputs": {"R": [3, 3]}},
 {"function": "written_then_read", "points": [[[0.3, -1.2, 2.0]]], "outputs": {"J": [3, 3]}},
 {"function": "determinant", "points": [[0.3, -1.2]], "outputs": {"F": [2, 2]}},
 {"function": "banded", "points": [[[0.3, -1.2, 2.0]]], "outputs": {"J": [3, 3]}},
 {"function": "outer_by_transform", "points": [[[0.3, -1.2, 2.0]]], "outputs": {"J": [3, 3]}},
 {"function": "features", "points": [[[0.3, -1.2, 0.8], 3]], "outputs": {"F": [3, 3]}}]
*/
