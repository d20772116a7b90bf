// UNFAD_GRADIENT on a declaration without a definition: an error at the construct, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
// CHECK: mark_no_body.cpp:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate 'f': the marked function has no definition (put the mark on the definition)
UNFAD_GRADIENT double f(double x);
