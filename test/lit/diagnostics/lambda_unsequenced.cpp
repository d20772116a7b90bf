// a lambda writing a captured variable, called in an expression that also reads it: an error at the call.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
UNFAD_GRADIENT double f(double x) {
  double e = 1.0;
  auto add = [&](double v) { e += v; return v; };
// CHECK: lambda_unsequenced.cpp:[[@LINE+1]]:10: error: cannot differentiate 'f': 'e' may be modified by the lambda this call runs and is also used elsewhere in the expression
  return add(x) * e;
}
