// A write through the reference a helper returns (`at(v, i) = ...`) is a
// store into the element itself, and std::ref(acc) given to a function
// template taking T by value is the local `acc`: no call of `at`, no
// wrapper object in the generated code.
// RUN: %unfad %s -- -std=c++17 -I%unfad_include > %t.out
// RUN: grep -v '^// *[A-Z-]*:' %t.out | FileCheck %s
#include <unfad/unfad.h>
#include <functional>
#include <vector>
static double& at(std::vector<double>& v, int i) { return v[i]; }
template <class T> void add_sq(T t, double x) { t.get() += x * x; }
UNFAD_GRADIENT double f(const std::vector<double>& x, int n) {
  std::vector<double> v(n);
  for (int i = 0; i < n; ++i) at(v, i) = x[i] * x[i];
  double acc = 0.0;
  for (int i = 0; i < n; ++i) add_sq(std::ref(acc), at(v, i));
  return acc;
}
// CHECK-LABEL: double f_grad(const std::vector<double>& x, int n, std::vector<double>& d_x) {
// CHECK-NOT:     at(
// CHECK-NOT:     ref
// CHECK:         v[[[I:i[_0-9]*]]] = [[T:t[_0-9]*]];
// CHECK-NOT:     at(
// CHECK-NOT:     ref
// CHECK:         [[ACC:state[_0-9]*]] = [[ACC]] + [[X:x_[0-9]+]] * [[X]];
// CHECK-NOT:     at(
// CHECK-NOT:     ref
// CHECK:         return [[ACC]];
// CHECK-NEXT:  }
