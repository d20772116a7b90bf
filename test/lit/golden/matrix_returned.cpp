// Objects of a class owning a std::vector returned by value and copied: the
// local a helper returns is handed over (its storage takes the caller's
// name, `G_data_`, and is never copied), a copy (`Matrix B = A;`) is one
// array allocated at the copy and filled by one loop, every allocation
// outside the loops, no Matrix left in the generated code.
// RUN: %unfad %s -- -std=c++17 -I%unfad_include > %t.out
// RUN: grep -v '^// *[A-Z-]*:' %t.out | FileCheck %s
#include <unfad/unfad.h>
#include <vector>
class Matrix {
public:
  Matrix(int rows, int cols) : rows_(rows), cols_(cols), data_(rows * cols, 0.0) {}
  double& operator()(int i, int j) { return data_[i * cols_ + j]; }
  double operator()(int i, int j) const { return data_[i * cols_ + j]; }
  int rows() const { return rows_; }
  int cols() const { return cols_; }
private:
  int rows_, cols_;
  std::vector<double> data_;
};
static Matrix transpose(const Matrix& A) {
  Matrix T(A.cols(), A.rows());
  for (int i = 0; i < A.rows(); ++i)
    for (int j = 0; j < A.cols(); ++j) T(j, i) = A(i, j);
  return T;
}
UNFAD_GRADIENT double gram(const double* a, int n) {
  Matrix A(n, n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) A(i, j) = a[i * n + j];
  Matrix G = transpose(A);
  Matrix B = A;
  B(0, 0) = 2.0 * a[0];
  double s = 0.0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) s += G(i, j) * B(i, j) * A(i, j);
  return s;
}
// CHECK-LABEL: double gram_grad(const double* a, int n, double* d_a) {
// CHECK:         std::vector<double> A_data_({{[a-z_0-9]+}});
// CHECK-NOT:     Matrix
// CHECK:         std::vector<double> G_data_({{[a-z_0-9]+}});
// CHECK-NOT:     T_data_
// CHECK-NOT:     Matrix
// CHECK:         std::vector<double> B_data_([[LEN:t_[0-9]+]]);
// CHECK-NEXT:    std::vector<double> d_B_data_([[LEN]]);
// CHECK-NEXT:    for (long [[I:i_[0-9]+]] = 0; [[I]] < [[LEN]]; ++[[I]]) {
// CHECK-NEXT:      B_data_[[[I]]] = A_data_[[[I]]];
// CHECK-NEXT:    }
// CHECK-NOT:     std::vector
// CHECK-NOT:     Matrix
// CHECK:         return
