// A class owning a std::vector (a matrix with a constructor, `operator()`
// returning a value and `double&`, public data members) as a parameter of a
// marked function: the gradient reads its members by name and adds into an
// adjoint object of the same class, `Mat* d_A`, sized by the caller. A
// local Mat built by a constructor and filled by a helper through `Mat&`.
// main checks every partial against central finite differences of f
// itself, never of f_grad.
#include <unfad/unfad.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "fdcheck.h"

namespace la {

struct Mat {
  Mat(int r, int c) : rows(r), cols(c), data(r * c, 0.0) {}
  double operator()(int i, int j) const { return data[i * cols + j]; }
  double& operator()(int i, int j) { return data[i * cols + j]; }
  int rows, cols;
  std::vector<double> data;
};

static void outer(Mat& P, const Mat& A) {
  for (int i = 0; i < A.rows; ++i)
    for (int j = 0; j < A.rows; ++j) {
      double s = 0.0;
      for (int k = 0; k < A.cols; ++k) s += A(i, k) * A(j, k);
      P(i, j) = s;
    }
}

// log(1 + |A A^T|_F^2) + w * A(0, 1)
UNFAD_GRADIENT double frob(const Mat& A, double w) {
  Mat P(A.rows, A.rows);
  outer(P, A);
  double s = 0.0;
  for (int i = 0; i < P.rows; ++i)
    for (int j = 0; j < P.cols; ++j) s += P(i, j) * P(i, j);
  return std::log(1.0 + s) + w * A(0, 1);
}

} // namespace la

namespace {

const double kH = 1e-5;

int check_frob() {
  la::Mat A(2, 3);
  const double vals[6] = {0.5, -0.25, 0.75, 0.1, 0.3, -0.6};
  for (int k = 0; k < 6; ++k) A.data[k] = vals[k];
  la::Mat dA(2, 3);
  double dw = 0.0;
  int bad = la::frob_grad(A, 1.5, &dA, &dw) == la::frob(A, 1.5) ? 0 : 1;
  for (int k = 0; k < 6; ++k) {
    la::Mat up = A, down = A;
    up.data[k] += kH, down.data[k] -= kH;
    bad += fd_check("frob/dA", dA.data[k], (la::frob(up, 1.5) - la::frob(down, 1.5)) / (2 * kH));
  }
  bad += fd_check("frob/dw", dw, A(0, 1)); // hand-derived
  return bad;
}

} // namespace

int main() {
  int bad = check_frob();
  std::printf("%s\n", bad ? "FAILED" : "PASSED");
  return bad;
}
