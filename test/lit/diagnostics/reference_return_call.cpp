// a write through the reference a helper returns, where the helper returns
// different fields on different paths (a reference must designate one
// object): an error at the return, non-zero exit, and a failed -i leaves
// the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
struct Vec2 { double x, y; };
static double &component(Vec2 &p, int k) {
  if (k == 0) return p.x;
// CHECK: reference_return_call.cpp:[[@LINE+1]]:12: error: cannot differentiate 'f': 'component' returns references to different objects on different paths (not supported: a reference must designate one variable, or elements of one array)
  return p.y;
}
UNFAD_GRADIENT double f(double x, double y) {
  Vec2 p{x, y};
  component(p, 1) += x;
  return p.x * p.y;
}
