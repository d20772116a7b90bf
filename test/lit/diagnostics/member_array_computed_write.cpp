// A write to an element of a member array with an index known only at run time (array members are
// held as one field per element, so an element written must be known when the code is generated;
// reads with such an index, and loops with constant bounds, are supported): an error at the
// subscript, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
struct Vec3 { double r[3]; };
UNFAD_GRADIENT double f(double x, int k) {
  Vec3 v{{x, 2.0 * x, 0.0}};
  const double before = v.r[k];
// CHECK: member_array_computed_write.cpp:[[@LINE+1]]:3: error: cannot differentiate 'f': writes to an element of member array 'r' need a constant index (or the index of a counted loop with constant bounds, which is unrolled)
  v.r[k] = x * x;
  return v.r[0] + v.r[1] + before;
}
