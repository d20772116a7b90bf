// a non-const reference local bound to a conditional lvalue (two possible objects): an error at the initialiser, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
UNFAD_GRADIENT double f(double x, double y) {
  double a = x, b = y;
// CHECK: reference_conditional.cpp:[[@LINE+1]]:15: error: cannot differentiate 'f': this reference is not supported ('r'; only references to local variables, to array elements and to their fields are)
  double &r = x > y ? a : b;
  r *= 2.0;
  return a * b;
}
