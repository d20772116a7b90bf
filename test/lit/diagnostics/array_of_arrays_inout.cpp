// an array of arrays read and then written (an in/out parameter): an error at the store, non-zero exit, and a failed -i leaves the file byte-identical.
// (an output array of arrays written before it is read is supported: e2e output_tables.cpp)
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
UNFAD_GRADIENT void scale(double (*m)[3], double s) {
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j)
// CHECK: array_of_arrays_inout.cpp:[[@LINE+1]]:7: error: cannot differentiate 'scale': array of arrays 'm' is written after it is read: in/out arrays of arrays are supported as a marked function's std::vector<std::vector<T>>& or std::vector<std::array<T, N>>& parameter, not in this form yet (an output written before it is read is; or use a flat array and 'a[i * n + j]')
      m[i][j] *= s;
}
