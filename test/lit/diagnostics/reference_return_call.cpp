// a call to a function returning a reference: an error at the construct, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
static const double &first(const double &a, const double &) { return a; }
UNFAD_GRADIENT double f(double x, double y) {
// CHECK: reference_return_call.cpp:[[@LINE+1]]:10: error: cannot differentiate 'f': calls to functions returning references are not supported ('first')
  return first(x, y) * y;
}
