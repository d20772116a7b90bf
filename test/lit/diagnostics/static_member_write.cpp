// a write to a static data member: an error at the construct, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
struct Counter { static double last; };
double Counter::last = 0;
UNFAD_GRADIENT double f(double x) {
// CHECK: static_member_write.cpp:[[@LINE+1]]:3: error: cannot differentiate 'f': writes to global variable 'last'
  Counter::last = x;
  return x * x;
}
