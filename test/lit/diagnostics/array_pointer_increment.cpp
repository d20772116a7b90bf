// a pointer parameter moved in a loop (`x++`) is supported (test/e2e/cases/pointer_idioms.cpp), and so is one made to
// point into another parameter (`x = y`, test/e2e/cases/reseated_pointers.cpp); into a local array declared later it
// is not: an error at the construct, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
UNFAD_GRADIENT double f(const double *x, const double *y, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    double twice[2] = {2 * y[i], y[i]};
    s += x[0];
// CHECK: array_pointer_increment.cpp:[[@LINE+1]]:7: error: cannot differentiate 'f': pointer 'x' is made to point into another array than the one it was initialised with, one not known where it is declared
    x = twice;
  }
  return s;
}
