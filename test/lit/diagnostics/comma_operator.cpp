// the comma operator is supported (test/e2e/cases/side_effect_exprs.cpp, in a loop condition too:
// test/e2e/cases/pointer_idioms.cpp, and in the right operand of && / || and a branch of ?:: short_circuit_effects.cpp);
// still refused: uses on both sides of an unsequenced operator. An error at the construct, non-zero
// exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
UNFAD_GRADIENT double g(double x) {
  double y = 0;
// CHECK: comma_operator.cpp:[[@LINE+1]]:17: error: cannot differentiate 'g': 'y' is modified here and also used elsewhere in the expression
  return y + (y = x, 2 * x);
}
