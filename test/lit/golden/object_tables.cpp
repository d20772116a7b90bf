// A std::vector of objects that own new[] memory (GradBench's ht keeps its
// bone transforms so): each object's number members become one array over
// the table, its buffer one flat array with a row of `widest` elements per
// object (the largest size its reallocations in the table's scope can set,
// computed where the table is first used) and the current lengths beside it.
// Nothing is allocated in a loop, no new[] or delete[] is left, each object's
// elements are addressed as row * widest + k, and the backward sweep adds
// into the flat adjoint in place.
// RUN: %unfad %s -- -std=c++17 -I%unfad_include > %t.out
// RUN: grep -v '^// *[A-Z-]*:' %t.out | FileCheck %s
// RUN: sed -n '/unfad:begin fit_grad/,/unfad:end fit_grad/p' %t.out | FileCheck %s --check-prefix=NONEW
#include <unfad/unfad.h>
#include <cmath>
#include <vector>

class Poly {
 public:
  Poly() : n_(0), c_(nullptr) {}
  ~Poly() { delete[] c_; }
  void reset(int n) {
    if (n != n_) {
      delete[] c_;
      c_ = n > 0 ? new double[n] : nullptr;
    }
    n_ = n;
  }
  double eval(double t) const {
    double s = 0;
    for (int k = n_ - 1; k >= 0; --k) s = s * t + c_[k];
    return s;
  }
  int n_;
  double* c_;
};

UNFAD_GRADIENT double fit(const double* x, int m, int degree) {
  std::vector<Poly> polys(m);
  for (int i = 0; i < m; ++i) {
    polys[i].reset(degree + 1);
    for (int k = 0; k <= degree; ++k) polys[i].c_[k] = x[i * (degree + 1) + k];
  }
  double s = 0;
  for (int i = 0; i < m; ++i) s += std::sin(polys[i].eval(0.5 + i));
  return s;
}
// CHECK-LABEL: double fit_grad(const double* x, int m, int degree, double* d_x) {
// CHECK-NEXT:    std::vector<long> polys_n_(m);
// CHECK:         long [[W:widest[_0-9]*]] = 0;
// CHECK:         for (long {{.*}} < m; {{.*}}) {
// CHECK:         const long [[T:t[_0-9]*]] = m * [[W]];
// CHECK-NEXT:    std::vector<double> polys_c_([[T]]);
// CHECK-NEXT:    std::vector<double> d_polys_c_([[T]]);
// CHECK-NEXT:    std::vector<long> polys_c_lengths(m);
// CHECK:         for (long [[I:[a-z_0-9]+]] = 0; [[I]] < m; ++[[I]]) {
// CHECK-NEXT:      polys_n_[[[I]]] = 0;
// CHECK-NEXT:      polys_c_lengths[[[I]]] = 0;
// CHECK:           polys_c_lengths[[[R:[a-z_0-9]+]]] = [[SIZE:c_size[_0-9]*]];
// CHECK:           polys_c_[[[R]] * [[W]] + {{.*}}] = x[{{.*}}];
// CHECK:         d_polys_c_[{{[a-z_0-9]+}} * [[W]] + {{[a-z_0-9]+}}] += {{.*}};
// CHECK:         // unfad:end fit_grad
// NONEW: fit_grad
// NONEW-NOT: new
// NONEW-NOT: delete
// NONEW: unfad:end fit_grad
