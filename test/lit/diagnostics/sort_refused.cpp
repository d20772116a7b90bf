// Sorting (lib/frontend/sorting.cpp) takes ranges of numbers, ascending or
// with std::less / std::greater; other comparators and ranges of structs
// are refused at the call, located, and nothing is written.
// RUN: not %unfad %s -- -std=c++17 -I%unfad_include 2>&1 | FileCheck %s
#include <unfad/unfad.h>
#include <algorithm>
#include <cmath>
#include <vector>

UNFAD_GRADIENT double by_magnitude(std::vector<double> v) {
// CHECK: sort_refused.cpp:[[@LINE+1]]:33: error: cannot differentiate 'by_magnitude': 'std::sort' with this comparator is not supported: only std::less and std::greater (for another order, sort keys computed from the values)
  std::sort(v.begin(), v.end(), [](double a, double b) { return std::abs(a) < std::abs(b); });
  return v[0] * v[1];
}

struct P { double x, y; };
bool operator<(const P& a, const P& b) { return a.x < b.x; }

UNFAD_GRADIENT double points(const double* xs, int n) {
  std::vector<P> ps(n);
  for (int i = 0; i < n; ++i) ps[i] = P{xs[i], xs[i] * xs[i]};
// CHECK: sort_refused.cpp:[[@LINE+1]]:3: error: cannot differentiate 'points': 'std::sort' of a range of structs or arrays is not supported (sort an array of numbers, e.g. keys, and reorder by it in a loop)
  std::sort(ps.begin(), ps.end());
  return ps[0].y;
}

// CHECK-NOT: unfad:begin
