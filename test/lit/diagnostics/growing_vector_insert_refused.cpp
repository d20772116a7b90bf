// `v.insert(v.end(), first, last)` appends to a growing vector
// (test/e2e/cases/growing_vectors_insert.cpp); an insert elsewhere (it would
// shift the elements after it) is an error at the call, and nothing is
// written.
// RUN: not %unfad %s -- -std=c++17 -I%unfad_include 2>&1 | FileCheck %s
#include <unfad/unfad.h>
#include <vector>

UNFAD_GRADIENT double prepended(const std::vector<double>& x) {
  std::vector<double> v = {1.0, 2.0};
// CHECK: growing_vector_insert_refused.cpp:[[@LINE+1]]:5: error: cannot differentiate 'prepended': 'insert' on a growing std::vector is not supported (only push_back, emplace_back, resize, assign(n, value), clear, pop_back, reserve and insert(v.end(), first, last))
  v.insert(v.begin(), x.begin(), x.end());
  double s = 0;
  for (double e : v) s += e * e;
  return s;
}

// CHECK-NOT: unfad:begin
