// A class owning a std::vector (a Matrix with a constructor sizing its
// storage, `operator()` returning `double&`), built as a local and filled by
// a helper through `Matrix&`: its storage is one local array allocated once,
// before any loop (`K_data_`, of the run-time size the constructor gives),
// its adjoint likewise; the accessor is the element itself, written in place
// (`K_data_[i * n + j] = ...`), no call and no object left in the code.
// RUN: %unfad %s -- -std=c++17 -I%unfad_include > %t.out
// RUN: grep -v '^// *[A-Z-]*:' %t.out | FileCheck %s
#include <unfad/unfad.h>
#include <vector>
class Matrix {
public:
  Matrix(int rows, int cols) : rows_(rows), cols_(cols), data_(rows * cols, 0.0) {}
  double& operator()(int i, int j) { return data_[i * cols_ + j]; }
  double operator()(int i, int j) const { return data_[i * cols_ + j]; }
private:
  int rows_, cols_;
  std::vector<double> data_;
};
static void fill(Matrix& K, const double* x, int n) {
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) K(i, j) = x[i] * x[j];
}
UNFAD_GRADIENT double energy(const double* x, int n) {
  Matrix K(n, n);
  fill(K, x, n);
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += K(i, i) * x[i];
  return s;
}
// CHECK-LABEL: double energy_grad(const double* x, int n, double* d_x) {
// CHECK:         std::vector<double> K_data_({{[a-z_0-9]+}});
// CHECK:         std::vector<double> d_K_data_({{[a-z_0-9]+}});
// CHECK-NOT:     std::vector
// CHECK-NOT:     Matrix
// CHECK-NOT:     new
// CHECK:         for (long i = 0; i < n; ++i) {
// CHECK:           K_data_[i * n + j] = x[i] * x[j];
// CHECK-NOT:     std::vector
// CHECK-NOT:     Matrix
// CHECK-NOT:     new
// CHECK:         return
