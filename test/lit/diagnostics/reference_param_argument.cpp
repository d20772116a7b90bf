// a reference argument that is neither a local variable nor an array element (a conditional lvalue): an error at the argument, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
static void scale(double &y, double a) { y *= a; }
UNFAD_GRADIENT double f(double x, double y) {
  double a = x, b = y;
// CHECK: reference_param_argument.cpp:[[@LINE+1]]:9: error: cannot differentiate 'f': this argument of 'scale' cannot be passed by reference (only local variables, array elements and their fields can)
  scale(x > y ? a : b, 2.0);
  return a * b;
}
