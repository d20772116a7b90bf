// range-based for by reference over an array the loop body writes: an error at the loop variable, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
#include <vector>
struct Vec2 {
  double x, y;
};
UNFAD_GRADIENT double f(const double* a, int n) {
  std::vector<Vec2> v(n);
  for (int i = 0; i < n; ++i) v[i] = Vec2{a[i], a[i] * a[i]};
  double s = 0;
// CHECK: range_for_ref_written.cpp:[[@LINE+1]]:20: error: cannot differentiate 'f': range-based 'for' by reference over an array the loop writes is not supported (take the element by value, or index the array)
  for (const Vec2& q : v) {
    v[0].x = s;
    s += q.x * q.y;
  }
  return s;
}
