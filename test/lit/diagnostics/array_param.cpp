// a three-dimensional array parameter: an error at the construct, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
// CHECK: array_param.cpp:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate 'f': pointers to 'const double[3][3]' are not supported (elements are scalars, structs of scalars, or arrays of scalars)
UNFAD_GRADIENT double f(double x, const double p[2][3][3]) {
  return x * p[0][0][0];
}
