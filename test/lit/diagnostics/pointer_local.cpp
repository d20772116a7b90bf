// a pointer variable: an error at the construct, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
UNFAD_GRADIENT double f(double x) {
// CHECK: pointer_local.cpp:[[@LINE+1]]:11: error: cannot differentiate 'f': pointers are not supported yet ('double *')
  double *p = &x;
  return x;
}
