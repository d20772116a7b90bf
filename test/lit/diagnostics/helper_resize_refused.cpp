// A helper that resizes the std::vector it is given by reference is lowered
// into its caller (lib/frontend/resized_members.cpp), so a recursive one
// cannot be: an error at the recursive call naming why, non-zero exit, and
// a failed -i leaves the file byte-identical. (A helper resizing the marked
// function's own output: output_vector_resize_refused.cpp.)
// RUN: not %unfad %s -- -std=c++17 -I%unfad_include 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 -I%unfad_include 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>

#include <cmath>
#include <vector>

static void build(const double* x, int n, std::vector<double>& y) {
  if (n == 0) {
    y.clear();
    return;
  }
// CHECK: helper_resize_refused.cpp:[[@LINE+1]]:3: error: cannot differentiate 'f': recursive calls of a function with a std::vector parameter it resizes are not supported ('build')
  build(x, n - 1, y);
  y.resize(n);
  y[n - 1] = std::sin(x[n - 1]);
}

UNFAD_GRADIENT double f(const double* x, int n) {
  std::vector<double> y;
  build(x, n, y);
  double s = 0;
  for (double v : y) s += v;
  return s;
}
// CHECK-NOT: unfad:begin
