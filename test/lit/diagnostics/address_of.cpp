// taking the address of a parameter (a local's address can be taken: e2e/cases/address_taken.cpp): an error at the construct, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
static void scale(double *a) { *a *= 2; }
UNFAD_GRADIENT double f(double x) {
// CHECK: address_of.cpp:[[@LINE+1]]:9: error: cannot differentiate 'f': taking the address of the parameter 'x' is not supported (copy it into a local variable first, whose address can be taken)
  scale(&x);
  return x;
}
