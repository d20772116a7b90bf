// pointer arithmetic: an error at the construct, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
UNFAD_GRADIENT double f(const double *x) {
// CHECK: array_pointer_arith.cpp:[[@LINE+1]]:11: error: cannot differentiate 'f': pointer arithmetic is not supported (index the array instead: 'x[i]')
  return *(x + 1) * x[0];
}
