// a marked function returning int: an error at the construct, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
// CHECK: mark_int_return.cpp:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate 'f': return type 'int' is not floating-point (double or float)
UNFAD_GRADIENT int f(double x) {
  return int(x);
}
