// assignments inside expressions are supported (test/e2e/cases/side_effect_exprs.cpp, in a branch of '?:' too:
// short_circuit_effects.cpp); still refused: one whose order relative to another use of the variable C++ leaves
// unspecified. An error at the
// construct, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
UNFAD_GRADIENT double f(double x) {
  double y = 0;
// CHECK: assign_in_expr.cpp:[[@LINE+1]]:23: error: cannot differentiate 'f': 'y' is modified here and also used elsewhere in the expression, in an order C++ leaves unspecified (or fixes only since C++17): write it as separate statements
  const double z = (y = 2 * x) + y;
  return z * y;
}
UNFAD_GRADIENT double h(double x) {
  double y = 1;
// CHECK: assign_in_expr.cpp:[[@LINE+1]]:5: error: cannot differentiate 'h': 'y' is modified here and also used elsewhere in the expression
  y = y++ + x;
  return y;
}
