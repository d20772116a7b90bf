// a GNU statement expression: an error at the construct, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
UNFAD_GRADIENT double f(double x) {
// CHECK: statement_expr.cpp:[[@LINE+1]]:20: error: cannot differentiate 'f': statement expressions are not supported
  const double y = ({ const double t = 2 * x; t; });
  return y;
}
