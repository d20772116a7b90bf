// A const marked method of a class owning a std::vector: the object is split
// into its members as a `const T&` parameter would be, read through `this`
// (`this->w_[i]`, no copy of the vector) and differentiated into `d_this`,
// an object of the class whose vector the caller sizes
// (`d_this->w_[i] += ...`, in place).
// RUN: %unfad %s -- -std=c++17 > %t.out
// RUN: grep -v '^// *[A-Z-]*:' %t.out | FileCheck %s
#include <unfad/unfad.h>

#include <cmath>
#include <vector>

class Linear {
public:
  Linear(std::vector<double> w, double b) : w_(std::move(w)), b_(b) {}
  UNFAD_GRADIENT double predict(const double* x) const {
    double s = b_;
    for (size_t i = 0; i < w_.size(); ++i) s += w_[i] * std::tanh(x[i]);
    return s;
  }

private:
  std::vector<double> w_;
  double b_;
};

// CHECK-LABEL: double predict_grad(const double* x, Linear* d_this, double* d_x) const;
// CHECK-LABEL: inline double Linear::predict_grad(const double* x, Linear* d_this, double* d_x) const {
// CHECK-NOT:     std::vector
// CHECK:         for (long [[I:i[_0-9]*]] = 0; [[I]] < {{.*}}; ++[[I]]) {
// CHECK:           const double [[W:t[_0-9]*]] = this->w_[[[I]]];
// CHECK:           d_x[[[I]]] += {{.*}} * [[W]];
// CHECK-NEXT:      d_this->w_[[[I]]] += {{t_[0-9]+}};
// CHECK:         d_this->b_ += 1.0;
// CHECK:         return
