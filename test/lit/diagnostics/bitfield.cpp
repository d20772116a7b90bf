// a struct with a bit-field: an error at the construct, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
// CHECK: bitfield.cpp:[[@LINE+1]]:16: error: cannot differentiate 'f': bit-fields are not supported
struct B { int k : 3; double d; };
UNFAD_GRADIENT double f(double x) {
  const B b{1, x};
  return b.d * b.k;
}
