// Sorting (lib/frontend/sorting.cpp) takes std::less, std::greater or a
// comparator of one key of each element; other comparators (several keys)
// and ranges of structs without a comparator are refused at the call,
// located, and nothing is written.
// RUN: not %unfad %s -- -std=c++17 -I%unfad_include 2>&1 | FileCheck %s
#include <unfad/unfad.h>
#include <algorithm>
#include <cmath>
#include <vector>

struct P { double x, y; };
bool operator<(const P& a, const P& b) { return a.x < b.x; }

UNFAD_GRADIENT double lexicographic(const double* xs, int n) {
  std::vector<P> ps(n);
  for (int i = 0; i < n; ++i) ps[i] = P{xs[i], xs[i] * xs[i]};
// CHECK: sort_refused.cpp:[[@LINE+1]]:35: error: cannot differentiate 'lexicographic': 'std::sort' with this comparator is not supported: std::less, std::greater, or a comparison of one key of each element ('return key(a) < key(b);')
  std::sort(ps.begin(), ps.end(), [](const P& a, const P& b) { return a.x < b.x || (a.x == b.x && a.y < b.y); });
  return ps[0].y;
}

UNFAD_GRADIENT double points(const double* xs, int n) {
  std::vector<P> ps(n);
  for (int i = 0; i < n; ++i) ps[i] = P{xs[i], xs[i] * xs[i]};
// CHECK: sort_refused.cpp:[[@LINE+1]]:3: error: cannot differentiate 'points': 'std::sort' of a range of structs or arrays needs a comparator comparing one key of each element ('[](const P& a, const P& b) { return a.x < b.x; }')
  std::sort(ps.begin(), ps.end());
  return ps[0].y;
}

// CHECK-NOT: unfad:begin
