// a call to a function returning a reference is read as a value; a write
// through the reference it returns is refused: an error at the construct,
// non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
static double &at(double *v, int i) { return v[i]; }
UNFAD_GRADIENT double f(double x, double y) {
  double v[2] = {x, y};
// CHECK: reference_return_call.cpp:[[@LINE+1]]:3: error: cannot differentiate 'f': writes through the reference a function returns are not supported ('at'; index the array instead)
  at(v, 1) += x;
  return at(v, 0) * v[1];
}
