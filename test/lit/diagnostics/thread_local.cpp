// a thread_local variable: an error at the construct, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
UNFAD_GRADIENT double f(double x) {
// CHECK: thread_local.cpp:[[@LINE+1]]:23: error: cannot differentiate 'f': thread_local variables are not supported ('t')
  thread_local double t = 0;
  return x + t;
}
