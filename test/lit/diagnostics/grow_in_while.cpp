// A local std::vector grown inside a 'while' loop (its room is not known where it is declared): an error at the push, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
#include <vector>
UNFAD_GRADIENT double f(double x) {
  std::vector<double> v;
  double t = x;
  while (t < 10.0) {
// CHECK: grow_in_while.cpp:[[@LINE+1]]:7: error: cannot differentiate 'f': growing 'v' inside a 'while' loop is not supported
    v.push_back(t);
    t = 2.0 * t + 1.0;
  }
  double s = 0.0;
  for (double e : v) s += e * e;
  return s;
}
