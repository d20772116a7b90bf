// Numbers at namespace scope are read by name (test/e2e/cases/mutable_globals.cpp);
// what stays refused is an error at the construct, non-zero exit, and a
// failed -i leaves the file byte-identical: a mutable global array (a helper
// could write it through a pointer), a thread_local, a static local.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
double weights[3] = {1, 2, 3};
thread_local double tls_scale = 2;
UNFAD_GRADIENT double f(double x) {
// CHECK: global_read.cpp:[[@LINE+1]]:10: error: cannot differentiate 'f': reads of global variable 'weights' are not supported (only constants and numbers at namespace scope)
  return weights[1] * x;
}
UNFAD_GRADIENT double g(double x) {
// CHECK: global_read.cpp:[[@LINE+1]]:10: error: cannot differentiate 'g': reads of global variable 'tls_scale' are not supported (only constants and numbers at namespace scope)
  return tls_scale * x;
}
// CHECK-NOT: unfad:begin
