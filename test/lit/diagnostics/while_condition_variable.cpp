// `while` with a condition variable (unlike `if` and `switch`, which take
// one): an error at the loop, non-zero exit, and a failed -i leaves the file
// byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
static double halve(double r) { return r > 0.1 ? 0.5 * r : 0.0; }
UNFAD_GRADIENT double f(double x) {
  double s = 0.0, r = x;
// CHECK: while_condition_variable.cpp:[[@LINE+1]]:3: error: cannot differentiate 'f': 'while' with a condition variable is not supported
  while (double t = halve(r)) {
    s += t;
    r = t;
  }
  return s;
}
