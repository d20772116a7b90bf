// a volatile parameter: an error at the construct, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
// CHECK: volatile_param.cpp:[[@LINE+1]]:41: error: cannot differentiate 'f': volatile values are not supported
UNFAD_GRADIENT double f(volatile double x) {
  return x * 2;
}
