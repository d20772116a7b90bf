// pointer locals re-seated where the tool cannot follow (reseated_pointers.cpp): into an array declared after the pointer, and a use of a pointer into one of several arrays in a loop's condition; an error at the construct, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
UNFAD_GRADIENT double f(const double *a, int n) {
  const double *p = a;
  double s = 0;
  for (int i = 0; i < n; ++i) {
    double pair[2] = {a[i], 2 * a[i]};
    s += *p;
// CHECK: pointer_local.cpp:[[@LINE+1]]:7: error: cannot differentiate 'f': pointer 'p' is made to point into another array than the one it was initialised with, one not known where it is declared (not supported: a pointer local points into its first array, or into arrays declared before it)
    p = pair;
  }
  return s;
}
UNFAD_GRADIENT double g(const double *a, const double *b, int n) {
  const double *p = a;
  double s = 0;
  for (int i = 0; i < n; ++i)
    if (a[i] > 0) p = b + i;
// CHECK: pointer_local.cpp:[[@LINE+1]]:10: error: cannot differentiate 'g': pointer 'p' points into one of several arrays here (which one depends on the path taken), and this use of it cannot be generated once per array (statements using it can; a loop's or a branch's condition cannot): read what it needs into a local in a statement before
  while (p[0] > s) s += 1.0;
  return s;
}
