// Pointers are views into arrays: a pointer local is its array and an
// offset, the offset an ordinary integer local (`const long xi_offset = i *
// d`); reads through it index the array (`x[xi_offset + j]`), and a view
// passed to a helper is printed as the pointer `x + xi_offset`, its
// cotangent buffer as `d_x + xi_offset`: the helper's pullback accumulates
// into that part of d_x.
// RUN: %unfad %s --dump=ir -- -std=c++17 -I%unfad_include | FileCheck %s --check-prefix=IR
// RUN: %unfad %s -- -std=c++17 -I%unfad_include > %t.out
// RUN: grep -v '^// *[A-Z-]*:' %t.out | FileCheck %s
#include <unfad/unfad.h>

static double dot(const double* a, const double* b, int d) {
  double s = 0.0;
  for (int j = 0; j < d; ++j) s += a[j] * b[j];
  return s;
}

UNFAD_GRADIENT double rows(const double* x, const double* w, int n, int d) {
  double s = 0.0;
  for (int i = 0; i < n; ++i) {
    const double* xi = x + i * d;
    s += xi[0] * dot(xi, &w[i * d], d);
  }
  return s + dot(x, w, d); // (two calls: the helper stays a function)
}
// IR-LABEL: def rows(
// IR:         let xi_offset: i64 = mul(i, d) in
// IR:         x[xi_offset]
// IR:         dot(view(x, xi_offset), view(w, mul(i, d)), d)
// CHECK-LABEL: double rows_grad(const double* x, const double* w, int n, int d, double* d_x, double* d_w) {
// CHECK:         const long xi_offset = i * d;
// (the call and its pullback one run, guarded by the cotangent x[xi_offset])
// CHECK:         dot_value_and_pullback(x + xi_offset, w + {{.*}}, d, {{.*}}, d_x + xi_offset, d_w + {{.*}});
// CHECK:         ::dot(x + xi_offset, w + {{.*}}, d)
// CHECK:         d_x[xi_offset{{.*}}] +=

UNFAD_GRADIENT double direct(const double* x, const double* w, int n, int d) {
  double s = dot(w, w, d); // (two calls: the helper stays a function)
  for (int i = 0; i < n; ++i) s += dot(x + i * d, w, d);
  return s;
}
// (the sweep over the views is fused with the loop: one pass, the offset
// computed once, the call and its pullback one run of dot_value_and_pullback)
// CHECK-LABEL: double direct_grad(const double* x, const double* w, int n, int d, double* d_x, double* d_w) {
// CHECK:         for (long i = 0; i < n; ++i) {
// CHECK-NEXT:      const long [[T:t[_0-9]*]] = i * d;
// CHECK-NEXT:      const double [[V:dot_value[_0-9]*]] = dot_value_and_pullback(x + [[T]], w, d, 1.0, d_x + [[T]], d_w);
// CHECK-NEXT:      [[S:[a-z_0-9]+]] = [[S]] + [[V]];
// CHECK-NEXT:    }
