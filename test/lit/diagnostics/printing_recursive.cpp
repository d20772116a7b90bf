// Printing in a recursive function is refused at the print: its gradient
// calls the function again for the values its pullback needs, which would
// print again. Nothing is written.
// RUN: not %unfad %s -- -std=c++17 -I%unfad_include 2>&1 | FileCheck %s
#include <unfad/unfad.h>
#include <cmath>
#include <cstdio>

static double depth(double x, int k) {
  if (k == 0) return x;
// CHECK: printing_recursive.cpp:[[@LINE+1]]:3: error: cannot differentiate 'nested': printing inside the recursive function 'depth' is not supported (its gradient calls it again for the values its pullback needs, which would print again; print from its caller)
  std::printf("depth %d\n", k);
  return std::sin(depth(x, k - 1));
}

UNFAD_GRADIENT double nested(double x) { return depth(x, 3); }

// CHECK-NOT: unfad:begin
