// a pointer to a pointer: an error at the construct, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
UNFAD_GRADIENT double f(const double *a) {
  const double *p = a + 1;
// CHECK: pointer_to_pointer.cpp:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate 'f': {{.*}}not supported
  const double *const *pp = &p;
  return **pp;
}
