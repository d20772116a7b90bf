// a mutable lambda: an error at the construct, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
UNFAD_GRADIENT double f(double x) {
  auto sq = [](double a) { return a * a; }; // supported
// CHECK: lambda.cpp:[[@LINE+1]]:14: error: cannot differentiate 'f': mutable lambdas are not supported
  auto acc = [s = 0.0](double a) mutable { s += a; return s; };
  return sq(x) + acc(x);
}
