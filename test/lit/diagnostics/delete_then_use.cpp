// A 'new[]' buffer read after its 'delete[]': an error at the use, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
UNFAD_GRADIENT double f(const double* x, int n) {
  double* buf = new double[n];
  for (int i = 0; i < n; ++i) buf[i] = x[i] * x[i];
  delete[] buf;
// CHECK: delete_then_use.cpp:[[@LINE+1]]:20: error: cannot differentiate 'f': use of 'buf' after 'delete[]'
  const double s = buf[0];
  return s;
}
