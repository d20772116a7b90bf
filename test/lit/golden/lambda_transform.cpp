// A lambda given to std::transform: the gradient is a loop over the
// elements, with no closure object and no std::function, the lambda's body
// inlined, and the adjoint of the input added in place (+=).
// RUN: %unfad %s -- -std=c++17 -I%unfad_include > %t.out
// RUN: grep -v '^// *[A-Z-]*:' %t.out | FileCheck %s
#include <unfad/unfad.h>

#include <algorithm>
#include <cmath>
#include <vector>

UNFAD_GRADIENT void scale_exp(const std::vector<double>& x, double a, std::vector<double>& out) {
  std::transform(x.begin(), x.end(), out.begin(), [a](double v) { return a * std::exp(v); });
}
// The forward loop runs the lambda's body on each element (its exp taped),
// the backward loop adds into d_x[j] in place and sums a's adjoint.
// CHECK-LABEL: void scale_exp_grad(
// CHECK-NOT:     std::function
// CHECK-NOT:     [a]
// CHECK:         for (long [[J:[a-z_0-9]+]] = 0; [[J]] < {{.*}}; ++[[J]]) {
// CHECK-NEXT:      const double [[V:[a-z_0-9]+]] = x[[[J]]];
// CHECK:           out[[[J]]] = a * {{.*}};
// CHECK:         for (long [[K:[a-z_0-9]+]] = {{.*}}; [[K]] >= 0; --[[K]]) {
// CHECK:           d_x[[[K]]] += {{.*}};
// CHECK:         *d_a +=
// CHECK-NOT:     std::function
// CHECK:       }
