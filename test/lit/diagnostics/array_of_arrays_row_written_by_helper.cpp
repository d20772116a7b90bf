// a helper that reads and then writes a row of an array of arrays it is given (in/out): an error at the call, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
#include <vector>
static void scale(std::vector<double>& r, double s) {
  for (size_t i = 0; i < r.size(); ++i) r[i] = r[i] * s + 1.0;
}
UNFAD_GRADIENT double f(std::vector<std::vector<double>>& X, double s) {
// CHECK: array_of_arrays_row_written_by_helper.cpp:[[@LINE+1]]:3: error: cannot differentiate 'f': array of arrays 'X' is written after it is read: in/out arrays of arrays are not supported yet (an output written before it is read is; or use a flat array and 'a[i * n + j]')
  scale(X[0], s);
  return X[0][0];
}
