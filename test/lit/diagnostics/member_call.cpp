// a member function called through a pointer: an error at the construct, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
struct Spring { double k; double force(double d) const { return k * d; } };
UNFAD_GRADIENT double f(const Spring* s, double x) {
// CHECK: member_call.cpp:[[@LINE+1]]:10: error: cannot differentiate 'f': calls of member functions through pointers are not supported
  return s->force(x);
}
