// a pointer-to-pointer parameter: an error at the construct, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
// CHECK: pointer_param.cpp:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate 'f': pointers to pointers are not supported ('const double **')
UNFAD_GRADIENT double f(double x, const double **p) {
  return x * p[0][0];
}
