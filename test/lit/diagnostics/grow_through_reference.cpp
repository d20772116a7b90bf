// A growing local std::vector resized through a reference local bound to it (its room is counted from the calls on
// the vector itself): an error at the call, non-zero exit, nothing written. (Reading and rewriting its elements
// through `auto& r = v;` is supported: test/e2e/cases/growing_vector_references.cpp.)
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
#include <vector>
UNFAD_GRADIENT double f(const double* x, int n) {
  std::vector<double> v;
  for (int i = 0; i < n; ++i) v.push_back(x[i]);
  std::vector<double>& r = v;
// CHECK: grow_through_reference.cpp:[[@LINE+1]]:5: error: cannot differentiate 'f': a growing std::vector cannot be resized through a reference ('r'; call it on the vector itself)
  r.push_back(x[0]);
  double s = 0.0;
  for (double e : v) s += e * e;
  return s;
}
