// a read of a mutable global: an error at the construct, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
double scale = 2;
UNFAD_GRADIENT double f(double x) {
// CHECK: global_read.cpp:[[@LINE+1]]:10: error: cannot differentiate 'f': reads of global variable 'scale' are not supported (only constants)
  return scale * x;
}
