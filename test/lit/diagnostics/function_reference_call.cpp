// a call through a reference to a function: an error at the construct, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
static double twice(double a) { return 2 * a; }
UNFAD_GRADIENT double f(double x) {
  double (&fr)(double) = twice;
// CHECK: function_reference_call.cpp:[[@LINE+1]]:10: error: cannot differentiate 'f': calls through function pointers are not supported
  return fr(x);
}
