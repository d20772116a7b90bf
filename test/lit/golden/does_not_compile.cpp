// Source that does not compile: the compiler's own diagnostics, non-zero
// exit, no file written.
// RUN: not %unfad %s -- -std=c++17 -I%unfad_include 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 -I%unfad_include 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>

UNFAD_GRADIENT double f(double x) {
  return x * undeclared_name; // CHECK: does_not_compile.cpp:[[@LINE]]:{{[0-9]+}}: error: use of undeclared identifier 'undeclared_name'
}
