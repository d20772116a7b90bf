// a <cmath> function without a derivative rule (fmod) on a differentiated value (on integers it is supported): an error at the construct, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
#include <cmath>
UNFAD_GRADIENT double f(double x) {
// CHECK: unsupported_fmod.cpp:[[@LINE+1]]:10: error: cannot differentiate 'f': 'fmod' has no derivative in unfad, and its argument may depend on the differentiated values
  return std::fmod(x, 2.0) * x;
}
