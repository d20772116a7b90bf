// increments inside expressions are supported (test/e2e/cases/side_effect_exprs.cpp); still refused: one whose order
// relative to another use of the variable C++ leaves unspecified (`a[i++] = i`, `a[k] * a[k++]`; in a loop condition,
// `while (k++ < n)`, it is supported: test/e2e/cases/pointer_idioms.cpp). An error at the construct, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
UNFAD_GRADIENT void f(double* a, double x) {
  int i = 0;
// CHECK: incdec_in_expr.cpp:[[@LINE+1]]:6: error: cannot differentiate 'f': 'i' is modified here and also used elsewhere in the expression, in an order C++ leaves unspecified (or fixes only since C++17): write it as separate statements
  a[i++] = i * x;
}
UNFAD_GRADIENT double g(const double* a) {
  int k = 0;
// CHECK: incdec_in_expr.cpp:[[@LINE+1]]:20: error: cannot differentiate 'g': 'k' is modified here and also used elsewhere in the expression
  return a[k] * a[k++];
}
UNFAD_GRADIENT double h(double x, int n) {
  int k = 0;
  double s = 0;
// CHECK: incdec_in_expr.cpp:[[@LINE+1]]:11: error: cannot differentiate 'h': 'k' is modified here and also used elsewhere in the expression
  while (k++ < n - k) s += x;
  return s;
}
