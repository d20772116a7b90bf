// a pointer local made to point into another array than its first (a pointer local keeps its array): an error at the construct, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
UNFAD_GRADIENT double f(const double *a, const double *b, int n) {
  const double *p = a;
  double s = 0;
  for (int i = 0; i < n; ++i) {
    s += *p;
// CHECK: pointer_local.cpp:[[@LINE+1]]:7: error: cannot differentiate 'f': pointer 'p' is made to point into another array than the one it was initialised with (not supported: a pointer local keeps its array)
    p = b + i;
  }
  return s;
}
