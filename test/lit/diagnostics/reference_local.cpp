// a reference to a pointer local (references to local variables, to array elements and to their fields are supported): an error at the construct, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
UNFAD_GRADIENT double f(const double* x, int n) {
  const double* p = x;
// CHECK: reference_local.cpp:[[@LINE+1]]:18: error: cannot differentiate 'f': references to pointers are not supported ('q'; use the pointer itself)
  const double*& q = p;
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += *q++;
  return s;
}
