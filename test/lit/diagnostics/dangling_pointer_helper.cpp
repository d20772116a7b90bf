// a helper returning a pointer into its own local array (dangling after the call): an error at its return, non-zero exit, nothing written.
// RUN: not %unfad %s -- -std=c++17 -Wno-return-stack-address 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 -Wno-return-stack-address 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
static const double *scratch(const double *x) {
  double t[2] = {x[0], 2 * x[1]};
// CHECK: dangling_pointer_helper.cpp:[[@LINE+1]]:10: error: cannot differentiate 'f': 'scratch' returns a pointer into its own local array, which no longer exists after the call (a dangling pointer)
  return t + 1;
}
UNFAD_GRADIENT double f(const double *x) {
  const double *p = scratch(x);
  return p[0];
}
