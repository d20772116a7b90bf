// a class with a constructor: an error at the construct, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
struct C { double d; C(double a) : d(2 * a) {} };
UNFAD_GRADIENT double f(double x) {
// CHECK: non_aggregate_type.cpp:[[@LINE+1]]:11: error: cannot differentiate 'f': type 'C' is not supported: only structs of plain values (aggregates without bases) are
  const C c(x);
  return c.d;
}
