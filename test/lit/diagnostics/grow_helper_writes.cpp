// A growing local std::vector passed to a helper that may write it (the helper would see the buffer, not the vector's length): an error at the argument, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
#include <vector>
static void scale(std::vector<double>& v, double a) {
  for (double& e : v) e *= a;
}
UNFAD_GRADIENT double f(const double* x, int n) {
  std::vector<double> v;
  for (int i = 0; i < n; ++i) v.push_back(x[i]);
// CHECK: grow_helper_writes.cpp:[[@LINE+1]]:9: error: cannot differentiate 'f': a growing std::vector cannot be passed to a helper that may write it
  scale(v, x[0]);
  double s = 0.0;
  for (double e : v) s += e * e;
  return s;
}
