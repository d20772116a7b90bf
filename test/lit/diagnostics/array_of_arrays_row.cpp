// a row of a local array of arrays used as an array: an error at the construct, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
static double sum3(const double *r) { return r[0] + r[1] + r[2]; }
UNFAD_GRADIENT double f(double x) {
  double m[2][3] = {{x, 2 * x, 3 * x}, {x, x, x}};
// CHECK: array_of_arrays_row.cpp:[[@LINE+1]]:15: error: cannot differentiate 'f': rows of local arrays of arrays can only be indexed ('m[i][j]'), not used as arrays yet
  return sum3(m[1]);
}
