// 0 * e is not 0 when e is inf or NaN: f multiplies log(-1) = NaN by
// z = k * 0.0 and returns NaN, and f_grad must return what f returns.
// The optimiser used to fold k * 0.0 to 0 and then 0 * log(x) to 0, so that
// f_grad returned -1. In the primal code only IEEE-exact rewrites apply; in
// the adjoint code a zero cotangent still contributes nothing (d_k gets no
// 0 * log(x) term).
// RUN: cp %s %t.cpp
// RUN: %unfad -i %t.cpp -- -std=c++17 -I%unfad_include
// RUN: FileCheck --check-prefix=CODE %s < %t.cpp
// RUN: %cxx -std=c++17 -Wall -Wextra -Werror -I%unfad_include -DZERO_TIMES_NAN_MAIN %t.cpp -o %t.exe
// RUN: %t.exe | FileCheck %s
#include <unfad/unfad.h>

#include <cmath>

UNFAD_GRADIENT double zero_times_nan(double x, double k) {
  double z = k * 0.0;
  return z * std::log(x) + x;
}
// CODE-LABEL: double zero_times_nan_grad(
// CODE:         const double z = k * 0.0;
// CODE:         std::log(x)
// CODE-NOT:     *d_k +=
// CODE:         return

#ifdef ZERO_TIMES_NAN_MAIN
#include <cstdio>

static void report(double x, double k) {
  double dx = 0, dk = 0;
  double value = zero_times_nan(x, k);
  double returned = zero_times_nan_grad(x, k, &dx, &dk);
  bool same = std::isnan(value) ? std::isnan(returned) : returned == value;
  std::printf("x=%g f=%g f_grad=%g same=%d d_x=%g d_k=%g\n", x, value, returned, same, dx, dk);
}

int main() {
  report(-1.0, 3.0);
  report(2.0, 3.0);
}
#endif
// CHECK: x=-1 f={{-?nan}} f_grad={{-?nan}} same=1
// (d/dx (0 * log(x) + x) = 0 / x + 1 = 1 at x = 2; z = 0 so d/dk = 0)
// CHECK: x=2 f=2 f_grad=2 same=1 d_x=1 d_k=0
