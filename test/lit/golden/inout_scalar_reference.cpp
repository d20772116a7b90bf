// A marked function's scalar reference parameter read and then written is an in/out value (the
// contract's in/out convention: d_y carries the cotangent of y's final value in, the cotangent of
// its initial value out; f_grad leaves y as f does). For y1 = y0 * x:
//   d_x += y0 * d_y1,  d_y0 = x * d_y1
// No transpose reads y (the forward sweep keeps y0 in a local), so y keeps the forward sweep's
// final value: no undo, and f does not run again (ad/rev/inout_state.cpp).
// RUN: %unfad %s -- -std=c++17 -I%unfad_include > %t.out
// RUN: grep -v '^// *[A-Z-]*:' %t.out | FileCheck %s
#include <unfad/unfad.h>
UNFAD_GRADIENT void f(double x, double &y) {
  y = y * x;
}
// CHECK-LABEL: void f_grad(double x, double& y, double* d_x, double* d_y) {
// CHECK-NEXT:    const double [[Y0:t[_0-9]*]] = y;
// CHECK-NEXT:    y = [[Y0]] * x;
// CHECK-NEXT:    const double [[DY:d_y_i[_0-9]*]] = d_y[0];
// CHECK-NEXT:    d_y[0] = 0.0;
// CHECK-NEXT:    d_y[0] += x * [[DY]];
// CHECK-NEXT:    *d_x += [[Y0]] * [[DY]];
// CHECK-NEXT:  }
