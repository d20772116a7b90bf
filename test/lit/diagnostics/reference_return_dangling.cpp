// a write through a reference into a helper's own local array (dangling
// after the call): an error at the return, non-zero exit, and a failed -i
// leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 -Wno-return-stack-address 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 -Wno-return-stack-address 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
static double &scratch(double x, int i) {
  double buf[2] = {x, 2.0 * x};
// CHECK: reference_return_dangling.cpp:[[@LINE+1]]:10: error: cannot differentiate 'f': 'scratch' returns a reference into its own local array, which no longer exists after the call (a dangling reference)
  return buf[i];
}
UNFAD_GRADIENT double f(double x) {
  scratch(x, 1) += x;
  return x;
}
