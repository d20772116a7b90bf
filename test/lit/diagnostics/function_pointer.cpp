// a call through a function pointer: an error at the call, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
static double twice(double a) { return 2 * a; }
UNFAD_GRADIENT double f(double x) {
  double (*fp)(double) = twice;
// CHECK: function_pointer.cpp:[[@LINE+1]]:10: error: cannot differentiate 'f': calls through function pointers are not supported
  return fp(x);
}
