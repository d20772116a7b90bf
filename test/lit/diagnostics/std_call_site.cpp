// a refusal inside a standard-library function is reported at the user's call, not in the library's header; an
// algorithm unfad lowers itself (std::copy) on a range whose ends point into two arrays is refused at the argument. An error
// at the construct, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s --implicit-check-not=stl_algo
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
#include <algorithm>
#include <vector>
static double first_replaced(const std::vector<double>& x) {
  std::vector<double> v(x);
// CHECK: std_call_site.cpp:[[@LINE+1]]:3: error: cannot differentiate 'f': {{.*}} (inside 'std::make_heap', called here)
  std::make_heap(v.begin(), v.end());
  return v[0];
}
UNFAD_GRADIENT double f(const std::vector<double>& x) { return first_replaced(x) * x[1]; }
UNFAD_GRADIENT void g(double* x, double* y, int n) {
// CHECK: std_call_site.cpp:[[@LINE+1]]:13: error: cannot differentiate 'g': the two ends of this range are not recognised as iterators into the same array
  std::copy(&x[0], &y[n], x);
}
