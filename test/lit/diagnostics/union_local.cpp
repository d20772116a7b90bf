// a local union: an error at the construct, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
union U { double d; long l; };
UNFAD_GRADIENT double f(double x) {
// CHECK: union_local.cpp:[[@LINE+1]]:5: error: cannot differentiate 'f': unions are not supported ('U')
  U u;
  u.d = x;
  return u.d;
}
