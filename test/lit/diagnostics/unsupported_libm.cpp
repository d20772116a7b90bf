// a <cmath> function without a derivative rule (ldexp; lgamma, tgamma, fmod have one, see test/e2e/cases/cmath_special.cpp) called on a differentiated value (on passive values it is supported, see test/e2e/cases/passive_calls.cpp): an error at the construct, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
#include <cmath>
UNFAD_GRADIENT double f(double x) {
// CHECK: unsupported_libm.cpp:[[@LINE+1]]:10: error: cannot differentiate 'f': 'ldexp' has no derivative in unfad, and its argument may depend on the differentiated values
  return std::ldexp(x, 3);
}
