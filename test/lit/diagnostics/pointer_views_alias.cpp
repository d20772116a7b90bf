// two overlapping views of one array passed to a helper that writes one of them: supported when
// the helper is inlined (every helper but a recursive one), an error at the call for a recursive
// one (its pullback assumes distinct arrays); non-zero exit, and a failed -i leaves the file
// byte-identical. (test/e2e/cases/aliased_calls.cpp has the supported shapes.)
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
static void shift(const double *a, double *b, int n) {
  if (n == 0) return;
  b[n - 1] = 2.0 * a[n - 1];
  shift(a, b, n - 1);
}
UNFAD_GRADIENT void f(const double *x, int n, double *out) {
  for (int i = 0; i < n; ++i) out[i] = x[i];
// CHECK: pointer_views_alias.cpp:[[@LINE+1]]:3: error: cannot differentiate 'f': array 'out' is passed twice to the recursive function 'shift', which writes it (a recursive helper is not inlined, and its pullback assumes distinct arrays)
  shift(out, out + 1, n - 1);
}
