// a call to a function without a visible body: an error at the construct, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
double opaque(double);
UNFAD_GRADIENT double f(double x) {
// CHECK: no_body.cpp:[[@LINE+1]]:10: error: cannot differentiate 'f': call to 'opaque' whose body is not visible
  return opaque(x) * x;
}
