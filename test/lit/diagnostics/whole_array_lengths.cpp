// `y = next;` of std::vectors whose lengths may differ resizes `y` (it is
// held as a growing vector: lib/frontend/growing_vectors.cpp), but swapping
// whole arrays is an element-wise exchange (lib/frontend/local_arrays.cpp)
// only where both have one length by construction; where the lengths may
// differ, the swap is refused at it, located, and nothing is written.
// RUN: not %unfad %s -- -std=c++17 -I%unfad_include 2>&1 | FileCheck %s
#include <unfad/unfad.h>
#include <utility>
#include <vector>

UNFAD_GRADIENT double swapped(const std::vector<double>& x, int m) {
  std::vector<double> y = x;
  std::vector<double> z(m, 1.0);
// CHECK: whole_array_lengths.cpp:[[@LINE+1]]:5: error: cannot differentiate 'swapped': swapping whole arrays is only supported where both have the same length by construction (declare one with the other's size: 'std::vector<double> next(y.size());')
  y.swap(z);
  return y[0] * x[0];
}

// CHECK-NOT: unfad:begin
