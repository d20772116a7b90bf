// a loop in a helper: reported for the marked function, at the loop: an error at the construct, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
static double sum3(double x) {
  double s = 0;
  for (int i = 0; i < 3; ++i) // CHECK: helper_loop.cpp:[[@LINE]]:3: error: cannot differentiate 'f': loops are not supported yet ('for' statement)
    s += x;
  return s;
}
UNFAD_GRADIENT double f(double x) {
  return sum3(x) * x;
}
