// taking the address of a scalar local (to pass it as an output): pointers are views into arrays, so an error at the construct, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
static void scale(double *a) { *a *= 2; }
UNFAD_GRADIENT double f(double x) {
  double y = x;
// CHECK: address_of.cpp:[[@LINE+1]]:9: error: cannot differentiate 'f': pointers to single variables are not supported ('&y'; pointers are views into arrays: '&a[k]', 'a + k')
  scale(&y);
  return y * x;
}
