// a parameter array rewritten in a 'while' loop that also reads it: an error at the construct, non-zero exit, and a failed -i leaves the file byte-identical.
// (A local array may be rewritten like this: reverse mode checkpoints it.)
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
UNFAD_GRADIENT double f(const double *w, double *h, int steps) {
  int t = 0;
  while (t < steps) {
    double a = w[0] * h[0] + w[1] * h[1];
// CHECK: loop_while.cpp:[[@LINE+1]]:5: error: cannot differentiate 'f': array 'h' is written after it is read (not supported yet)
    h[0] = a;
    ++t;
  }
  return h[0];
}
