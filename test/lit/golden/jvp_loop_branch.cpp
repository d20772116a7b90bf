// Forward mode's shape: f_jvp after f with the tangents declared as their
// parameters and a last `double* d_return`; one forward sweep (the loop stays
// one loop, running forwards, carrying the state and its tangent), the tangent
// computed next to each primal line, the helper inlined, the branch taken
// computing both, and no tape, no backward loop, no allocation.
// RUN: %unfad %s -- -std=c++17 -I%unfad_include > %t.out
// RUN: grep -v '^// *[A-Z-]*:' %t.out | FileCheck %s
// RUN: cp %s %t.cpp && %unfad -i %t.cpp -- -std=c++17 -I%unfad_include && %cxx -std=c++17 -Wall -Wextra -Werror -I%unfad_include -fsyntax-only %t.cpp
#include <unfad/unfad.h>
#include <cmath>

static double sq(double v) { return v * v; }

UNFAD_JVP double energy(const double* x, int n, double k) {
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += k * sq(x[i]);
  if (s > 1.0) s = std::log(s);
  return std::sin(s);
}

// CHECK:      {{^}}// unfad:begin energy_jvp
// CHECK-NEXT: {{^}}double energy_jvp(const double* x, int n, double k, const double* d_x, double d_k, double* d_return) {
// CHECK-NOT:  tape_buffer
// CHECK-NOT:  std::vector
// CHECK-NOT:  sq(
// CHECK:      {{^}}  for (long i = 0; i < n; ++i) {
// CHECK-NEXT: {{^}}    const double v = x[i];
// CHECK-NEXT: {{^}}    const double t = v * v;
// CHECK-NEXT: {{^}}    const double d_t_1 = t * d_k + k * (2.0 * (v * d_x[i]));
// CHECK-NEXT: {{^}}    [[S:[a-z_0-9]+]] = [[S]] + k * t;
// CHECK-NEXT: {{^}}    [[DS:[a-z_0-9]+]] = [[DS]] + d_t_1;
// CHECK-NEXT: {{^}}  }
// CHECK-NOT:  for (
// CHECK:      {{^}}  if ([[C:[a-z_0-9]+]]) {
// CHECK-NEXT: {{^}}    const double [[L:[a-z_0-9]+]] = std::log([[S]]);
// CHECK-NEXT: {{^}}    [[R:[a-z_0-9]+]] = [[L]];
// CHECK-NEXT: {{^}}    [[DR:[a-z_0-9]+]] = 1.0 / [[S]] * [[DS]];
// CHECK-NEXT: {{^}}  } else {
// CHECK-NEXT: {{^}}    [[R]] = [[S]];
// CHECK-NEXT: {{^}}    [[DR]] = [[DS]];
// CHECK-NEXT: {{^}}  }
// CHECK-NEXT: {{^}}  const double result = std::sin([[R]]);
// CHECK-NEXT: {{^}}  *d_return = std::cos([[R]]) * [[DR]];
// CHECK-NEXT: {{^}}  return result;
// CHECK-NEXT: {{^}}}
// CHECK-NEXT: {{^}}// unfad:end energy_jvp
