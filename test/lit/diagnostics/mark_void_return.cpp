// UNFAD_GRADIENT on a function returning void that writes no output: an error at the construct, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
// CHECK: mark_void_return.cpp:[[@LINE+1]]:21: error: cannot differentiate 'f': return type 'void' is not floating-point, and the function writes no floating-point output parameter
UNFAD_GRADIENT void f(double x) {
  (void)x;
}
