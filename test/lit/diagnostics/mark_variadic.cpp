// UNFAD_GRADIENT on a variadic function: an error at the construct, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
// CHECK: mark_variadic.cpp:[[@LINE+1]]:23: error: cannot differentiate 'f': variadic functions are not supported
UNFAD_GRADIENT double f(double x, ...) {
  return x * x;
}
