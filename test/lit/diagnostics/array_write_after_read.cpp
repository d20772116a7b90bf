// a write to an array after it was read (the input is also the output): an error at the construct, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
UNFAD_GRADIENT void f(double *x, int n) {
  for (int i = 1; i < n; ++i)
// CHECK: array_write_after_read.cpp:[[@LINE+1]]:5: error: cannot differentiate 'f': array 'x' is written after it is read (not supported yet)
    x[i] = x[i - 1] * x[i];
}
