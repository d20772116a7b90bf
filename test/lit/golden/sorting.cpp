// std::stable_sort with std::greater of a local copy: the permutation comes
// from unfad.h's sort_permutation (algorithm 1, descending 1) on a copy of
// the values, the values are gathered by it, and the backward sweep
// scatters their adjoints back through the same permutation (no second
// sort: the forward sweep's is used, nothing is computed twice).
// RUN: %unfad %s -- -std=c++17 > %t.out
// RUN: grep -v '^// *[A-Z-]*:' %t.out | FileCheck %s
#include <unfad/unfad.h>

#include <algorithm>
#include <functional>
#include <vector>

UNFAD_GRADIENT double top_weighted(const std::vector<double>& x, const double* w) {
  std::vector<double> v = x;
  std::stable_sort(v.begin(), v.end(), std::greater<double>());
  double s = 0.0;
  for (size_t i = 0; i < v.size(); ++i) s += w[i] * v[i];
  return s;
}

// CHECK-LABEL: double top_weighted_grad(const std::vector<double>& x, const double* w, std::vector<double>& d_x, double* d_w) {
// CHECK:         std::vector<double> [[TMP:unsorted[_0-9]*]]([[N:t_[0-9]+]]);
// CHECK:         std::vector<long> [[ORDER:order[_0-9]*]]([[N]]);
// CHECK-NEXT:    ::unfad::sort_permutation([[TMP]].data(), [[N]], 0, 1, 1, [[ORDER]].data());
// CHECK-NOT:     sort_permutation
// CHECK:           v[[[I:i_[0-9]+]]] = [[TMP]][[[ORDER]][[[I]]]];
// CHECK:           d_[[TMP]][[[ORDER]][{{i_[0-9_]+}}]] += {{d_v[_0-9a-z]*}};
// CHECK:         return s;
