// A vector member resized, or a whole object assigned, in a loop over an
// object made before it (lib/frontend/resized_members.cpp): f_grad checks
// that the object keeps its size there (its snapshots and tapes are sized
// before the loop) and throws std::length_error where f would change it.
// Here `c` is made n x n and assigned a 2 x 2 product in the loop: at n = 2
// the gradient is f's; at n = 3 f_grad throws before it writes any adjoint.
// RUN: cp %s %t.cpp && %unfad -i %t.cpp -- -std=c++17 -I%unfad_include -I%S/Inputs
// RUN: %cxx -std=c++17 -O1 -I%unfad_include -I%S/Inputs %t.cpp -o %t.exe && %t.exe | FileCheck %s
// RUN: grep -v '^// *[A-Z-]*:' %t.cpp | FileCheck %s --check-prefix=CODE
// CHECK: same size ok
// CHECK-NEXT: threw: unfad: assigning a whole object of 'Mat' in 'relax' changes the size of an object made outside the loop or branch it runs in, which unfad's gradient does not do
// CHECK-NEXT: adjoint untouched
#include <unfad/unfad.h>

#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <vector>

#include "gradient_check.h"

class Mat {
 public:
  Mat(int r, int c) : rows_(r), cols_(c), data_(r * c, 0.0) {}
  double& operator()(int i, int j) { return data_[i * cols_ + j]; }
  double operator()(int i, int j) const { return data_[i * cols_ + j]; }
  int rows() const { return rows_; }

 private:
  int rows_, cols_;
  std::vector<double> data_;
};

UNFAD_GRADIENT_WRT(x) double relax(const std::vector<double>& x, int n, int steps) {
  Mat c(n, n);
  c(0, 0) = x[0];
  double s = 0;
  for (int k = 0; k < steps; k++) {
    Mat next(2, 2);
    next(0, 1) = std::sin(c(0, 0)) * x[1];
    next(0, 0) = next(0, 1) + x[0] * k;
    c = next;
    s += c(0, 0) * c.rows();
  }
  return s;
}
// CODE-LABEL: double relax_grad(
// CODE:         throw std::length_error("unfad: assigning a whole object of 'Mat' in 'relax' changes the size

int main() {
  const std::vector<double> x = {0.3, -1.1};
  bool ok = check([&](const std::vector<double>& v) { return relax(v, 2, 3); },
                  [&](const std::vector<double>& v, std::vector<double>& d) { return relax_grad(v, 2, 3, d); }, x);
  std::printf("same size %s\n", ok ? "ok" : "wrong");
  std::vector<double> d(2, 0.0);
  try {
    relax_grad(x, 3, 3, d);
    std::printf("no throw\n");
  } catch (const std::length_error& e) {
    std::printf("threw: %s\n", e.what());
  }
  std::printf("adjoint %s\n", d[0] == 0.0 && d[1] == 0.0 ? "untouched" : "written");
}
