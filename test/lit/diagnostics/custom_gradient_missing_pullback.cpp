// A registration naming a pullback that does not exist is the compiler's
// error (the mark takes both functions' addresses); nothing is written.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>

double squash(double a);
// CHECK: custom_gradient_missing_pullback.cpp:[[@LINE+1]]:31: error: use of undeclared identifier 'squash_pullback'
UNFAD_CUSTOM_GRADIENT(squash, squash_pullback);

UNFAD_GRADIENT double f(double x) { return squash(x); }
