// long double: an error at the construct, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
// CHECK: long_double.cpp:[[@LINE+1]]:42: error: cannot differentiate 'f': values of type 'long double' are not supported
UNFAD_GRADIENT long double f(long double x) {
  return x * x;
}
