// a helper that reads and then writes a row of a C array of arrays it is given (in/out): an error at the call, non-zero exit, and a failed -i leaves the file byte-identical.
// (a std::vector<std::vector<double>>& or std::vector<std::array<double, N>>& in/out parameter is supported: e2e inout_tables.cpp)
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
static void scale(double* r, int n, double s) {
  for (int i = 0; i < n; ++i) r[i] = r[i] * s + 1.0;
}
UNFAD_GRADIENT double f(double (*X)[3], double s) {
// CHECK: array_of_arrays_row_written_by_helper.cpp:[[@LINE+1]]:3: error: cannot differentiate 'f': array of arrays 'X' is written after it is read: in/out arrays of arrays are supported as a marked function's std::vector<std::vector<T>>& or std::vector<std::array<T, N>>& parameter, not in this form yet (an output written before it is read is; or use a flat array and 'a[i * n + j]')
  scale(X[0], 3, s);
  return X[0][0];
}
