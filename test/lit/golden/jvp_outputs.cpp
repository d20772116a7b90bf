// Forward mode with arrays: an output's tangent buffer is written where the
// output is (`=` where f assigns, `+=` where it adds), a local array gets a
// tangent array beside it on the stack, and a void f has no d_return.
// RUN: %unfad %s -- -std=c++17 -I%unfad_include > %t.out
// RUN: grep -v '^// *[A-Z-]*:' %t.out | FileCheck %s
#include <unfad/unfad.h>
#include <cmath>

UNFAD_JVP void smooth(const double* x, double* out) {
  double e[3];
  for (int i = 0; i < 3; ++i) e[i] = std::exp(x[i]);
  for (int i = 0; i < 3; ++i) out[i] = e[i] * x[(i + 1) % 3];
  out[0] += e[2];
}

// CHECK:      {{^}}// unfad:begin smooth_jvp
// CHECK-NEXT: {{^}}void smooth_jvp(const double* x, double* out, const double* d_x, double* d_out) {
// CHECK-NOT:  tape_buffer
// CHECK-NOT:  d_return
// CHECK-DAG:  {{^}}    out[i{{[_0-9]*}}] = {{.*}};
// CHECK-DAG:  {{^}}    d_out[i{{[_0-9]*}}] = {{.*}};
// CHECK-DAG:  {{^}}  out[0] += {{.*}};
// CHECK-DAG:  {{^}}  d_out[0] += {{.*}};
// CHECK:      {{^}}// unfad:end smooth_jvp
