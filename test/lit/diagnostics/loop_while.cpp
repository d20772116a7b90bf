// a 'while' loop: an error at the construct, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
UNFAD_GRADIENT double f(double x) {
  double s = x;
// CHECK: loop_while.cpp:[[@LINE+1]]:3: error: cannot differentiate 'f': loops are not supported yet ('while' statement)
  while (s < 10)
    s *= 2;
  return s;
}
