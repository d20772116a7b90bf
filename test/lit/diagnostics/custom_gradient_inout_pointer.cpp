// A function with a registered derivative updating an array in place
// (UNFAD_INOUT) through a pointer parameter of the marked function: the
// pullback needs the array as the call found it, and a pointer's length is
// not known for the copy. (A std::vector works: test/e2e/cases/custom_gradient_outputs.cpp.)
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
#include <unfad/unfad.h>

void step(UNFAD_INOUT double* y, double h, int n);
void step_pullback(double* y, double h, int n, double* d_y, double* d_h);
UNFAD_CUSTOM_GRADIENT(step, step_pullback);

UNFAD_GRADIENT void advance(double* y, double h, int n) {
// CHECK: custom_gradient_inout_pointer.cpp:[[@LINE+1]]:3: error: cannot differentiate 'advance': array 'y' is updated in place and 'step' (UNFAD_CUSTOM_GRADIENT) writes it: its pullback needs a copy from before the call, but its length is not known here (a pointer); pass a std::vector or std::array
  step(y, h, n);
}
