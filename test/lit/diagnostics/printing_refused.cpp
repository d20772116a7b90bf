// Printing inside a differentiated function (a stream's `<<`, printf) is
// refused at the call with that reason, not at a parameter of the library's
// operator<<, and nothing is written.
// RUN: not %unfad %s -- -std=c++17 -I%unfad_include 2>&1 | FileCheck %s
#include <unfad/unfad.h>
#include <cmath>
#include <cstdio>
#include <iostream>

UNFAD_GRADIENT double norm(const double* x, int n) {
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += x[i] * x[i];
// CHECK: printing_refused.cpp:[[@LINE+1]]:42: error: cannot differentiate 'norm': printing inside a differentiated function is not supported (print from its caller, or from a wrapper that calls both f and f_grad)
  if (s > 1e6) std::cerr << "large" << s << "\n";
  return std::sqrt(s);
}

UNFAD_GRADIENT double logged(double x) {
// CHECK: printing_refused.cpp:[[@LINE+1]]:3: error: cannot differentiate 'logged': printing inside a differentiated function is not supported (print from its caller, or from a wrapper that calls both f and f_grad)
  std::printf("x = %f\n", x);
  return x * x;
}

// CHECK-NOT: unfad:begin
