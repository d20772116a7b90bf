// an array parameter updated in place (read, then written) is supported, but a recursive helper
// rewriting one the caller only knows as a pointer is not: its pullback needs a copy of what each
// call found, and the length is unknown. An error at the call, non-zero exit, and a failed -i
// leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
static void halve(double *x, int n, int depth) {
  if (depth == 0) return;
  for (int i = 0; i < n; ++i) x[i] = 0.5 * x[i] * x[i];
// CHECK-DAG: array_write_after_read.cpp:[[@LINE+1]]:3: error: cannot differentiate 'f': array 'x' is updated in place and the recursive function 'halve' writes it, but its length is not known here (a pointer); pass a std::vector or std::array
  halve(x, n, depth - 1);
}
UNFAD_GRADIENT void f(double *x, int n) {
// CHECK-DAG: array_write_after_read.cpp:[[@LINE+1]]:3: error: cannot differentiate 'f': array 'x' is updated in place and the recursive function 'halve' writes it, but its length is not known here (a pointer); pass a std::vector or std::array
  halve(x, n, 3);
}
