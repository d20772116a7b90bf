// a call to a variadic library function (printf): an error at the construct, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
#include <cstdio>
UNFAD_GRADIENT double f(double x) {
// CHECK: variadic_call.cpp:[[@LINE+1]]:3: error: cannot differentiate 'f': calls to variadic functions are not supported ('printf')
  std::printf("%g\n", x);
  return x;
}
