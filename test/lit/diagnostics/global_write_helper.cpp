// a compound assignment to a global in a helper: an error at the construct, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
double g_acc = 0;
static double h(double a) {
// CHECK: global_write_helper.cpp:[[@LINE+1]]:3: error: cannot differentiate 'f': writes to global variable 'g_acc'
  g_acc += a;
  return a * a;
}
UNFAD_GRADIENT double f(double x) { return h(x); }
