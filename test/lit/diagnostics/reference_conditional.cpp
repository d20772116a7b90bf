// a non-const method called inside an expression on a reference bound to one of two objects (`Acc& a = c ? p : q; double t = a.bump(v);`): an error at the method's write, non-zero exit, and a failed -i leaves the file byte-identical.
// (such a call as a statement, `a.add(v);`, and writes through the reference are supported: e2e references_to_one_of_two.cpp)
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
struct Acc {
  double s = 0;
// CHECK: reference_conditional.cpp:[[@LINE+1]]:27: error: cannot differentiate 'f': writes through a reference to one of two objects are not supported
  double bump(double v) { s += v * v; return s; }
};
UNFAD_GRADIENT double f(double x, double y) {
  Acc p, q;
  Acc& a = x > y ? p : q;
  const double t = a.bump(x);
  return p.s - q.s + t;
}
