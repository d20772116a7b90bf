// a call through a pointer to member function: an error at the construct, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
struct Spring { double k; double force(double d) const { return k * d; } };
UNFAD_GRADIENT double f(double x) {
  const Spring s{2.0};
// CHECK: member_pointer_call.cpp:[[@LINE+1]]:20: error: cannot differentiate 'f': pointers are not supported yet ('double (Spring::*)(double) const')
  double (Spring::*pm)(double) const = &Spring::force;
  return (s.*pm)(x);
}
