// A loop with loop-carried state (Horner's rule, iterating downwards): the
// forward loop keeps the state in a mutable local, the backward loop runs in
// the opposite direction with the state's cotangent as its own state.
// RUN: %unfad %s -- -std=c++17 -I%unfad_include > %t.out
// RUN: grep -v '^// *[A-Z-]*:' %t.out | FileCheck %s
#include <unfad/unfad.h>

UNFAD_GRADIENT double horner(const double* c, int n, double x) {
  double p = 0.0;
  for (int i = n - 1; i >= 0; --i) p = p * x + c[i];
  return p;
}
// CHECK-LABEL: double horner_grad(const double* c, int n, double x, double* d_c, double* d_x) {
// CHECK:         for (long [[I:[a-z_0-9]+]] = {{.+}}; [[I]] >= 0; --[[I]]) {
// CHECK:         for (long [[J:[a-z_0-9]+]] = 0; [[J]] < {{.+}}; ++[[J]]) {
// CHECK:           d_c[[[J]]] +=
// CHECK:         *d_x +=
// CHECK:         return
