// UNFAD_GRADIENT on a function template: an error at the construct, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
// CHECK: mark_template.cpp:[[@LINE+1]]:37: error: cannot differentiate 'f': function templates cannot be marked yet
template <class T> UNFAD_GRADIENT T f(T x) { return x * x; }
double use(double x) { return f(x); }
