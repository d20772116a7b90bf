// a pointer parameter rewritten in a 'while' loop that also reads it: an error at the construct, non-zero exit, and a failed -i leaves the file byte-identical.
// (A local array, or a std::vector parameter, may be rewritten like this: reverse mode copies it before
// the loop's iterations are counted; a pointer's length is unknown.)
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
UNFAD_GRADIENT double f(const double *w, double *h, int steps) {
  int t = 0;
  while (t < steps) {
    double a = w[0] * h[0] + w[1] * h[1];
// CHECK: loop_while.cpp:[[@LINE+1]]:5: error: cannot differentiate 'f': array 'h' is updated in place in a 'while' loop, and its length is not known here (a pointer); pass a std::vector or std::array
    h[0] = a;
    ++t;
  }
  return h[0];
}
