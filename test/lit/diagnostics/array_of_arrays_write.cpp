// a write into an array of arrays (a parameter): an error at the construct, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
UNFAD_GRADIENT void scale(const double (*a)[3], double s, double (*out)[3]) {
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j)
// CHECK: array_of_arrays_write.cpp:[[@LINE+1]]:7: error: cannot differentiate 'scale': writes into arrays of arrays are not supported yet (use a flat array and 'a[i * n + j]')
      out[i][j] = s * a[i][j];
}
