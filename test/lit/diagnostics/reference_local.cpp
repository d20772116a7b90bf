// a local reference to a variable the function may change: an error at the construct, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
UNFAD_GRADIENT double f(double x) {
// CHECK: reference_local.cpp:[[@LINE+1]]:17: error: cannot differentiate 'f': reference variables are not supported yet ('r'; only const references to arrays, to temporaries and to elements of const arrays are)
  const double &r = x;
  return r * x;
}
