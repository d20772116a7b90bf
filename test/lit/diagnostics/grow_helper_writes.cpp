// A growing local std::vector passed to a helper that grows it too (the caller would not see the new length): an
// error at the argument, non-zero exit, and a failed -i leaves the file byte-identical. (A helper that reads or
// rewrites its elements is lowered into the caller: test/e2e/cases/layers_of_other_widths.cpp, `inplace`.)
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
#include <vector>
static void extend(std::vector<double>& v, double a) {
  v.push_back(a);
}
UNFAD_GRADIENT double f(const double* x, int n) {
  std::vector<double> v;
  for (int i = 0; i < n; ++i) v.push_back(x[i]);
// CHECK: grow_helper_writes.cpp:[[@LINE+1]]:10: error: cannot differentiate 'f': a growing std::vector cannot be passed to a helper that may resize it
  extend(v, x[0]);
  double s = 0.0;
  for (double e : v) s += e * e;
  return s;
}
