// Compositional output: a helper's pullback is generated once, as its own
// function, and called, not re-derived at each call site, even when two
// marked functions and several call sites use it.
// RUN: %unfad %s -- -std=c++17 > %t.out
// RUN: grep -v '^// *[A-Z-]*:' %t.out | FileCheck %s
// RUN: grep -c '^[a-z ]*void sq_pullback(.*) {$' %t.out | FileCheck --check-prefix=ONCE %s
#include <unfad/unfad.h>

static double sq(double a) { return a * a; }

UNFAD_GRADIENT double first(double x, double y) { return sq(x) + sq(y) * x; }

UNFAD_GRADIENT double second(double x) { return sq(sq(x)); }

// CHECK:     {{^}}// unfad:begin first_grad
// CHECK:     sq_pullback(
// CHECK:     {{^}}double first_grad(double x, double y, double* d_x, double* d_y) {
// CHECK:     sq_pullback(
// CHECK:     sq_pullback(
// CHECK:     {{^}}// unfad:end first_grad
// CHECK:     {{^}}// unfad:begin second_grad
// CHECK-NEXT: {{^}}double second_grad(double x, double* d_x) {
// CHECK:     sq_pullback(
// CHECK:     {{^}}// unfad:end second_grad

// ONCE: {{^}}1{{$}}
