// an increment inside an expression (found by the fuzzer): an error at the construct, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
UNFAD_GRADIENT double f(double x) {
  double t = x;
// CHECK: incdec_in_expr.cpp:[[@LINE+1]]:24: error: cannot differentiate 'f': increment or decrement inside an expression is not supported (use a separate statement)
  const double u = x - --t;
  return u * t;
}
