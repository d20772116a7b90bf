// UNFAD_GRADIENT_WRT naming the inputs but not the output a void function
// writes (GradBench's ode and ba wrappers, tried as a user would): the
// error names the output to add to the list, and nothing is written.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
// CHECK: wrt_output_left_out.cpp:[[@LINE+2]]:{{[0-9]+}}: error: cannot differentiate 'step': return type 'void' is not floating-point, and the function writes no floating-point output parameter it differentiates: it writes 'y', which UNFAD_GRADIENT_WRT leaves out (name it in the list: UNFAD_GRADIENT_WRT(..., y))
UNFAD_GRADIENT_WRT(x)
void step(const double *x, int n, double *y) {
  for (int i = 0; i < n; ++i) y[i] = x[i] * x[i];
}
