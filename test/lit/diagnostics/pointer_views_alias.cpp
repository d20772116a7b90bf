// two overlapping views of one array passed to a helper that writes one of them (outputs must not alias inputs): an error at the call, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
static void shift(const double *a, double *b, int n) {
  for (int i = 0; i < n; ++i) b[i] = 2.0 * a[i];
}
UNFAD_GRADIENT void f(const double *x, int n, double *out) {
  for (int i = 0; i < n; ++i) out[i] = x[i];
// CHECK: pointer_views_alias.cpp:[[@LINE+1]]:3: error: cannot differentiate 'f': array 'out' is passed twice to a function that writes it (outputs must not alias inputs)
  shift(out, out + 1, n - 1);
}
