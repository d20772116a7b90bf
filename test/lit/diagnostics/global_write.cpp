// a write to a global: an error at the construct, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
double counter = 0;
UNFAD_GRADIENT double f(double x) {
// CHECK: global_write.cpp:[[@LINE+1]]:3: error: cannot differentiate 'f': writes to global variable 'counter'
  counter = x;
  return x * x;
}
