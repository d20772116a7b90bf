// a label (without goto): an error at the construct, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
UNFAD_GRADIENT double f(double x) {
  const double y = 2 * x;
// CHECK: label_stmt.cpp:[[@LINE+1]]:1: error: cannot differentiate 'f': labels and 'goto' are not supported
done:
  return y;
}
