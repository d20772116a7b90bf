// a helper returning a pointer: an error at the construct, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
static const double *tail(const double *x) { return x; }
UNFAD_GRADIENT double f(const double *x) {
// CHECK: array_returning_helper.cpp:[[@LINE+1]]:10: error: cannot differentiate 'f': 'tail' returns an array or a pointer, which is not supported (write into an output parameter instead)
  return tail(x)[0];
}
