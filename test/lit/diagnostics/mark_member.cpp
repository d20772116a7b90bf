// UNFAD_GRADIENT on a member function: an error at the construct, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
struct S {
// CHECK: mark_member.cpp:[[@LINE+1]]:25: error: cannot differentiate 'f': member functions cannot be marked yet
  UNFAD_GRADIENT double f(double x) { return x * x; }
};
