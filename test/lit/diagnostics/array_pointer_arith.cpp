// a pointer increment inside an expression whose other operand reads the pointer too (`*p++ * *p`: C++ leaves the
// order unspecified; `*a++ * *b++` is supported, test/e2e/cases/pointer_idioms.cpp): an error at the construct, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
UNFAD_GRADIENT double f(const double *x) {
  const double *p = x;
// CHECK: array_pointer_arith.cpp:[[@LINE+1]]:12: error: cannot differentiate 'f': 'p' is modified here and also used elsewhere in the expression
  return *p++ * *p;
}
