// pointer arithmetic beyond indexing: an error at the construct, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
// CHECK: pointer_arith.cpp:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate 'f': {{.*}}pointer
UNFAD_GRADIENT double f(double x, const double *p) { return *(p + 1) * x; }
