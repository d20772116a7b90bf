// A matrix class owning a std::vector of its elements (an array member of a run-time size): not
// supported yet (array members of a constant size are); an error at the first use of the class,
// non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
#include <vector>
class Matrix {
public:
  Matrix(int r, int c) : rows_(r), cols_(c), data_(r * c, 0.0) {}
  double& operator()(int i, int j) { return data_[i * cols_ + j]; }
private:
  int rows_, cols_;
  std::vector<double> data_;
};
UNFAD_GRADIENT double f(const double* x) {
// CHECK: member_vector.cpp:[[@LINE+1]]:10: error: cannot differentiate 'f': type 'Matrix' has a member array of a run-time size ('data_'), which is not supported yet
  Matrix m(2, 2);
  m(0, 0) = x[0];
  return m(0, 0) * x[1];
}
