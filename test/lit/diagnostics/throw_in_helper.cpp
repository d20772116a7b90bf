// a throw in a helper: an error at the construct, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
static double checked(double a) {
  if (a < 0)
// CHECK: throw_in_helper.cpp:[[@LINE+1]]:5: error: cannot differentiate 'f': exceptions are not supported ('throw' expression)
    throw 1;
  return a;
}
UNFAD_GRADIENT double f(double x) { return checked(x) * x; }
