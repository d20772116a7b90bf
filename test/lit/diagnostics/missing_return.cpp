// falling off the end: an error at the construct, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
UNFAD_GRADIENT double f(double x) {
  if (x > 0)
    return x;
// CHECK: missing_return.cpp:[[@LINE+1]]:1: error: cannot differentiate 'f': control reaches the end of the function without a 'return'
}
