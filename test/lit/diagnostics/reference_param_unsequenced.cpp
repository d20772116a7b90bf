// a variable a call updates through a reference parameter and reads elsewhere in the same expression (an order C++ does not fix): an error at the call, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
static double bump(double &acc, double v) {
  acc += v;
  return acc;
}
UNFAD_GRADIENT double f(double x, double y) {
  double s = x;
// CHECK: reference_param_unsequenced.cpp:[[@LINE+1]]:14: error: cannot differentiate 'f': 's' is modified here and also used elsewhere in the expression, in an order C++ leaves unspecified (or fixes only since C++17): write it as separate statements
  double t = bump(s, y) * s;
  return t;
}
