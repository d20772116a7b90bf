// taking the address of a reference parameter (a local's or a by-value parameter's address can be taken: e2e/cases/address_taken.cpp): an error at the construct, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
static double twice(const double *a) { return *a * 2; }
UNFAD_GRADIENT double f(const double& x) {
// CHECK: address_of.cpp:[[@LINE+1]]:16: error: cannot differentiate 'f': pointers to this variable are not supported ('&x'; pointers are views into arrays, '&a[k]', 'a + k', or point to a local number or struct)
  return twice(&x);
}
