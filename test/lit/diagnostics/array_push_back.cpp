// 'push_back' on a std::vector parameter not cleared first (it would append to what the caller passed; local vectors grow, and outputs after 'out.clear()'): an error at the construct, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
#include <vector>
UNFAD_GRADIENT double f(double x, std::vector<double>& out) {
// CHECK: array_push_back.cpp:[[@LINE+1]]:7: error: cannot differentiate 'f': 'push_back' is only supported on a local std::vector, and on an output std::vector parameter of the marked function after 'clear()' as its first use (not on other parameters, references or rows)
  out.push_back(x);
  return x;
}
