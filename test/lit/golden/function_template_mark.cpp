// A marked function template (template_methods.cpp): each instantiation the
// file uses at floating-point arguments gets an ordinary overload `f_grad`
// right after the template, in a block named with its arguments; calls pick
// the overload by their arguments. f<int> gets none (not differentiable).
// RUN: %unfad %s -- -std=c++17 -I%unfad_include > %t.out
// RUN: grep -v '^// *[A-Z-]*:' %t.out | FileCheck %s
#include <unfad/unfad.h>

#include <cmath>

template <class T>
UNFAD_GRADIENT T f(T x, T y) {
  return std::sin(x) * y;
}

double use(double x) { return f(x, 2.0) + f(1.5f, 2.0f) + f(1, 2); }

// CHECK:      UNFAD_GRADIENT T f(T x, T y) {
// CHECK:      // unfad:begin f_grad<double> checksum=
// CHECK-NEXT: inline double f_grad(double x, double y, double* d_x, double* d_y) {
// CHECK:        *d_x += std::cos(x) * y;
// CHECK:      // unfad:end f_grad<double>
// CHECK-NEXT: // unfad:begin f_grad<float> checksum=
// CHECK-NEXT: inline float f_grad(float x, float y, float* d_x, float* d_y) {
// CHECK:      // unfad:end f_grad<float>
// CHECK-NOT:  unfad:begin
