// A class owning new[] memory (lib/frontend/owned_buffers.cpp): the pointer
// member the destructor frees is the object's own array. Pinned: a buffer of
// a constant size lives on the stack; `resize`'s conditional reallocation is
// one resize, where the product is made, before any loop; the gradient has
// no new[] or delete[]; and it agrees with central differences.
// RUN: cp %s %t.cpp && %unfad -i %t.cpp -- -std=c++17 -I%unfad_include -I%S/Inputs
// RUN: %cxx -std=c++17 -O1 -I%unfad_include -I%S/Inputs %t.cpp -o %t.exe && %t.exe | FileCheck %s
// RUN: grep -v '^// *[A-Z-]*:' %t.cpp | FileCheck %s --check-prefix=CODE
// CHECK: frob ok
#include <unfad/unfad.h>
#include <cmath>

class Mat {
 public:
  Mat() : own_(true), r_(0), c_(0), d_(nullptr) {}
  Mat(int r, int c) : own_(true), r_(r), c_(c) { d_ = new double[r * c]; }
  ~Mat() {
    if (own_ && d_ != nullptr) delete[] d_;
  }
  void resize(int r, int c) {
    if (r_ * c_ != r * c) {
      if (own_) delete[] d_;
      if (r * c > 0)
        d_ = new double[r * c];
      else
        d_ = nullptr;
    }
    r_ = r;
    c_ = c;
  }
  double& operator()(int i, int j) { return d_[j * r_ + i]; }
  double operator()(int i, int j) const { return d_[j * r_ + i]; }
  bool own_;
  int r_, c_;
  double* d_;
};

void mult(const Mat& a, const Mat& b, Mat* pout) {
  Mat& out = *pout;
  out.resize(a.r_, b.c_);
  for (int i = 0; i < a.r_; ++i)
    for (int k = 0; k < b.c_; ++k) {
      out(i, k) = 0.0;
      for (int j = 0; j < a.c_; ++j) out(i, k) += a(i, j) * b(j, k);
    }
}
UNFAD_GRADIENT double frob(const double* x, int n) {
  Mat a(2, 2);
  for (int k = 0; k < 4; ++k) a(k % 2, k / 2) = std::sin(x[k]);
  Mat p(2, n);
  for (int j = 0; j < n; ++j) {
    p(0, j) = x[4 + 2 * j];
    p(1, j) = x[5 + 2 * j];
  }
  Mat q;
  mult(a, p, &q);
  double s = 0.0;
  for (int j = 0; j < n; ++j) s += q(0, j) * q(1, j);
  return s;
}

#include "gradient_check.h"

int main() {
  const int n = 3;
  auto f = [&](const std::vector<double>& x) { return frob(x.data(), n); };
  auto g = [&](const std::vector<double>& x, std::vector<double>& d) { return frob_grad(x.data(), n, d.data()); };
  if (check(f, g, {0.3, -0.5, 0.8, 1.1, -0.2, 0.4, 0.6, -0.9, 0.25, 1.3})) std::printf("frob ok\n");
}
// CODE-LABEL: double frob_grad(
// CODE-NOT:     new double
// CODE:         std::array<double, 4> a_d_{};
// CODE:         std::vector<double> p_d_({{[a-z_0-9]+}});
// CODE:         std::vector<double> q_d_(0);
// CODE-NOT:     for (
// CODE:         q_d_.resize(
// CODE-NOT:     resize
// CODE-NOT:     delete
// CODE:         return
