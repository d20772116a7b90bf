// a local array captured by value (a copy): an error at the capture, nothing written.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
#include <vector>
UNFAD_GRADIENT double f(double x) {
  std::vector<double> v(3, x);
// CHECK: lambda_array_by_value.cpp:[[@LINE+1]]:14: error: cannot differentiate 'f': capturing the array 'v' by value (a copy) is not supported (capture it by reference: '[&v]')
  auto at = [v](int i) { return v[i]; };
  v[0] = 2.0;
  return at(0) * x;
}
