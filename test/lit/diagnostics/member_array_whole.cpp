// A member array used as a whole array (passed to a function taking a pointer): array members are
// supported indexed only; an error at the member, non-zero exit, and a failed -i leaves the file
// byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
struct Vec3 { double r[3]; };
static double sum(const double* a, int n) {
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += a[i];
  return s;
}
UNFAD_GRADIENT double f(double x) {
  Vec3 v{{x, 2.0 * x, 0.0}};
// CHECK: member_array_whole.cpp:[[@LINE+1]]:16: error: cannot differentiate 'f': member array 'r' is only supported indexed
  return sum(v.r, 3);
}
