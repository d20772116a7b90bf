// Iterators unfad cannot follow are refused at the construct, and nothing
// is written: iterators into two different vectors compared (their offsets
// mean nothing to each other), and reverse iterators given to a standard
// algorithm that writes its range (those that read one walk it backwards;
// the loop form is supported).
// RUN: not %unfad %s -- -std=c++17 -I%unfad_include 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 -I%unfad_include 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>

#include <numeric>
#include <vector>

UNFAD_GRADIENT double mixed(const std::vector<double>& x, const std::vector<double>& y) {
  double s = 0.0;
  // CHECK: iterators_refused.cpp:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate 'mixed': this loop's iterator and its end point into different arrays
  for (auto it = x.begin(); it != y.end(); ++it) s += *it;
  return s;
}

UNFAD_GRADIENT double backwards(const std::vector<double>& x) {
  std::vector<double> w(x.size());
  // CHECK: iterators_refused.cpp:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate 'backwards': reverse iterators are not supported in this standard algorithm (they are in accumulate, reduce, inner_product, transform_reduce, transform, for_each, copy and count_if; or write the loop: 'for (auto it = v.rbegin(); it != v.rend(); ++it)')
  std::iota(w.rbegin(), w.rend(), 1.0);
  return std::inner_product(x.begin(), x.end(), w.begin(), 0.0);
}

UNFAD_GRADIENT double two_ends(const std::vector<double>& x, const std::vector<double>& y) {
  auto a = x.begin();
  auto b = y.begin();
  // CHECK: iterators_refused.cpp:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate 'two_ends': comparing or subtracting pointers or iterators into different arrays is not supported
  return x[0] * double(b - a);
}
