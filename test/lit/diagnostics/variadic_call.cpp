// a call to a variadic library function (snprintf; printf is refused as printing: printing_refused.cpp): an error at the construct, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
#include <cstdio>
UNFAD_GRADIENT double f(double x) {
  char buf[32];
// CHECK: variadic_call.cpp:[[@LINE+1]]:3: error: cannot differentiate 'f': calls to variadic functions are not supported ('snprintf')
  std::snprintf(buf, sizeof buf, "%g", x);
  return x;
}
