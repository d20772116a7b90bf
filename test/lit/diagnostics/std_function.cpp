// a call through std::function: an error at the construct, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
#include <functional>
static double twice(double a) { return 2 * a; }
UNFAD_GRADIENT double f(double x) {
// CHECK: std_function.cpp:[[@LINE+1]]:33: error: cannot differentiate 'f': type 'std::function<double (double)>' is not supported: only structs of plain values (aggregates without bases) are
  std::function<double(double)> g = twice;
  return g(x);
}
