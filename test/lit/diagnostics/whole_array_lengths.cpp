// `y = next;` and swaps of whole arrays are element-wise copies and
// exchanges (lib/frontend/local_arrays.cpp) where both arrays have one
// length by construction; where the lengths may differ (the assignment would
// resize), it is refused at the assignment, located, and nothing is written.
// RUN: not %unfad %s -- -std=c++17 -I%unfad_include 2>&1 | FileCheck %s
#include <unfad/unfad.h>
#include <vector>

UNFAD_GRADIENT double resized(const std::vector<double>& x, int m) {
  std::vector<double> y = x;
  std::vector<double> z(m, 1.0);
// CHECK: whole_array_lengths.cpp:[[@LINE+1]]:5: error: cannot differentiate 'resized': assignment of whole arrays is only supported where both have the same length by construction (declare one with the other's size: 'std::vector<double> next(y.size());')
  y = z;
  return y[0] * x[0];
}

// CHECK-NOT: unfad:begin
