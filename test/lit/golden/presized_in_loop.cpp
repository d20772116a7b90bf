// A default-constructed object (its std::vector empty) first sized in a loop
// by the helper it is given (lib/frontend/resized_members.cpp,
// placeResizes): f_grad sizes it before the loop at what the first
// iteration gives it, `0 < n ? 2 * 2 : 0`, and each iteration checks it
// keeps that size, so no resize is left in the loop. Here the product's
// rows come from the loop's state `rows` (f changes it after the first
// iteration when `grow` is set): with the size kept, the gradient is f's; where
// f would resize the object, f_grad throws std::length_error before it writes
// any adjoint.
// RUN: cp %s %t.cpp && %unfad -i %t.cpp -- -std=c++17 -I%unfad_include -I%S/Inputs
// RUN: %cxx -std=c++17 -O1 -I%unfad_include -I%S/Inputs %t.cpp -o %t.exe && %t.exe | FileCheck %s
// RUN: grep -v '^// *[A-Z-]*:' %t.cpp | FileCheck %s --check-prefix=CODE
// CHECK: same size ok
// CHECK-NEXT: threw: unfad: 'data_.resize' in 'spin' changes the size of an object made outside the loop or branch it runs in, which unfad's gradient does not do
// CHECK-NEXT: adjoint untouched
#include <unfad/unfad.h>

#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <vector>

#include "gradient_check.h"

class Mat {
 public:
  Mat() : rows_(0), cols_(0) {}
  void resize(int r, int c) {
    data_.resize(r * c);
    rows_ = r;
    cols_ = c;
  }
  double& operator()(int i, int j) { return data_[i * cols_ + j]; }
  int rows_, cols_;
  std::vector<double> data_;
};

UNFAD_GRADIENT_WRT(x) double spin(const std::vector<double>& x, int n, bool grow) {
  Mat tmp;
  double s = 0;
  int rows = 2;
  for (int k = 0; k < n; k++) {
    tmp.resize(rows, 2);
    tmp(0, 0) = std::sin(x[0] * (k + 1));
    tmp(1, 1) = tmp(0, 0) * x[1];
    s += tmp(1, 1) * tmp(0, 0);
    if (grow) rows = 3;
  }
  return s;
}
// CODE-LABEL: double spin_grad(
// CODE:         const bool [[RUNS:[a-z_0-9]+]] = 0 < n;
// CODE-NEXT:    long [[SIZE:[a-z_0-9]+]];
// CODE-NEXT:    if ([[RUNS]]) {
// CODE-NEXT:      [[SIZE]] = 4;
// CODE-NEXT:    } else {
// CODE-NEXT:      [[SIZE]] = 0;
// CODE-NEXT:    }
// CODE:         std::vector<double> {{[a-z_0-9]+}}([[SIZE]]);
// CODE:         for (long
// CODE-NOT:     .resize(
// CODE:         throw std::length_error("unfad: 'data_.resize' in 'spin' changes the size
// CODE-NOT:     .resize(
// CODE:         return

int main() {
  const std::vector<double> x = {0.3, -1.1};
  bool ok = check([&](const std::vector<double>& v) { return spin(v, 3, false); },
                  [&](const std::vector<double>& v, std::vector<double>& d) { return spin_grad(v, 3, false, d); }, x);
  std::printf("same size %s\n", ok ? "ok" : "wrong");
  std::vector<double> d(2, 0.0);
  try {
    spin_grad(x, 3, true, d);
    std::printf("no throw\n");
  } catch (const std::length_error& e) {
    std::printf("threw: %s\n", e.what());
  }
  std::printf("adjoint %s\n", d[0] == 0.0 && d[1] == 0.0 ? "untouched" : "written");
}
