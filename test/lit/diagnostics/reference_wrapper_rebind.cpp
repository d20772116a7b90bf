// rebinding a std::reference_wrapper (`w = std::ref(b)` makes w refer to b;
// it does not assign b to a): an error at the assignment, non-zero exit, and
// a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
#include <functional>
UNFAD_GRADIENT double f(double x, double y) {
  double a = x, b = y;
  std::reference_wrapper<double> w = a;
// CHECK: reference_wrapper_rebind.cpp:[[@LINE+1]]:3: error: cannot differentiate 'f': rebinding a std::reference_wrapper is not supported (assign through '.get()', or use another wrapper)
  w = std::ref(b);
  w.get() *= 2.0;
  return a * b;
}
