// a range-based 'for' loop over an initializer list: an error at the construct, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
#include <initializer_list>
UNFAD_GRADIENT double f(double x, double y) {
  double s = 0;
// CHECK: loop_range_for.cpp:[[@LINE+1]]:3: error: cannot differentiate 'f': range-based 'for' is only supported over arrays (std::vector, std::array, C arrays)
  for (double v : {x, y})
    s += v;
  return s;
}
