// a virtual call: an error at the construct, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
struct Shape { virtual double area(double s) const { return s * s; } virtual ~Shape() = default; };
UNFAD_GRADIENT double f(double x) {
  const Shape sh;
  const Shape &r = sh;
// CHECK: virtual_call.cpp:[[@LINE+1]]:12: error: cannot differentiate 'f': virtual calls are not supported ('area')
  return r.area(x);
}
