// A registered derivative (UNFAD_CUSTOM_GRADIENT): the gradient calls the
// function for its value and the user's pullback for its derivative (a
// zero-initialised accumulator per scalar adjoint, the adjoint array in
// place); no pullback is generated for it, and a helper calling it gets a
// generated pullback that calls the user's.
// RUN: %unfad %s -- -std=c++17 > %t.out
// RUN: grep -v '^// *[A-Z-]*:' %t.out | FileCheck %s
// RUN: grep -c '^[a-z ]*void softplus_pullback(' %t.out | FileCheck --check-prefix=NONE %s
#include <unfad/unfad.h>

#include <cmath>

double softplus(double x);
void softplus_pullback(double x, double d_result, double* d_x);
UNFAD_CUSTOM_GRADIENT(softplus, softplus_pullback);

double sum_sq(const double* v, int n);
void sum_sq_pullback(const double* v, int n, double d_result, double* d_v);
UNFAD_CUSTOM_GRADIENT(sum_sq, sum_sq_pullback);

static double shifted(double a, double b) { return softplus(a - b); }

// (`shifted` is called twice: a helper called once would be inlined)
UNFAD_GRADIENT double loss(const double* w, double b, int n) {
  return softplus(w[0] * b) + sum_sq(w, n) * shifted(b, w[1]) + shifted(w[0], b);
}

// CHECK:      {{^}}// unfad:begin loss_grad
// CHECK:      {{^}}static inline void shifted_pullback(double a, double b, double d_return, double* d_a, double* d_b) {
// CHECK:        softplus_pullback(
// CHECK:      {{^}}double loss_grad(const double* w, double b, int n, double* d_w, double* d_b) {
// CHECK:        softplus(
// CHECK:        sum_sq(w, n)
// CHECK:        sum_sq_pullback(w, n, {{.*}}, d_w);
// CHECK:        softplus_pullback(
// CHECK:      {{^}}// unfad:end loss_grad

// (the declaration above only: no pullback generated for it)
// NONE: {{^}}1{{$}}
