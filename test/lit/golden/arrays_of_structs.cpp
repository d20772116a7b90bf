// Arrays of structs and arrays of arrays. An array of structs is one IR
// array whose elements are structs; a store may write one field
// (`store out[i].x = ...`), and the adjoint of an element read is added field
// by field into the adjoint array, which has the parameter's own type
// (`std::vector<Vec3>& d_v`, `Vec3* d_p`): one `+=` per field, no struct
// temporaries, fields with a zero cotangent skipped. A row A[i] of an array
// of arrays is an alias (`auto& row = A[i]`) whose cotangent buffer is
// d_A[i]: the adjoint of A[i][j] is `d_A[i][j] += ...` in place.
// RUN: %unfad %s --dump=ir -- -std=c++17 -I%unfad_include | FileCheck %s --check-prefix=IR
// RUN: %unfad %s --dump=ir --dump-format=json -- -std=c++17 -I%unfad_include | FileCheck %s --check-prefix=JSON
// RUN: %unfad %s -- -std=c++17 -I%unfad_include > %t.out
// RUN: grep -v '^// *[A-Z-]*:' %t.out | FileCheck %s
#include <unfad/unfad.h>

#include <cmath>
#include <vector>

struct Vec3 {
  double x, y, z;
};

UNFAD_GRADIENT double kinetic(const std::vector<Vec3>& v, const double* m, int n) {
  double e = 0.0;
  for (int i = 0; i < n; ++i) e += 0.5 * m[i] * (v[i].x * v[i].x + v[i].y * v[i].y + v[i].z * v[i].z);
  return e;
}
// IR-LABEL: def kinetic(v: [Vec3{x: f64, y: f64, z: f64}] active, m: [f64] active, n: i64) -> f64
// IR:         sum i in [0, n) ->
// IR:         v[i].x
// CHECK-LABEL: double kinetic_grad(const std::vector<Vec3>& v, const double* m, int n, std::vector<Vec3>& d_v, double* d_m) {
// CHECK:         for (long [[I:[a-z_0-9]+]] = 0; [[I]] < n; ++[[I]]) {
// CHECK:           const Vec3 [[P:[a-z_0-9]+]] = v[[[I]]];
// CHECK-NOT:       d_v[[[I]]] +=
// CHECK:           d_v[[[I]]].z += 2.0 * {{[a-z_0-9]+}};
// CHECK-NOT:       d_v[[[I]]].z +=
// CHECK:           d_v[[[I]]].y += 2.0 * {{[a-z_0-9]+}};
// CHECK-NOT:       d_v[[[I]]].y +=
// CHECK:           d_v[[[I]]].x += 2.0 * {{[a-z_0-9]+}};
// CHECK-NOT:       d_v[[[I]]].x +=
// CHECK:           d_m[[[I]]] += 0.5 * {{[a-z_0-9]+}};
// CHECK-NEXT:    }
// CHECK-NEXT:    return e;

UNFAD_GRADIENT void shift(const Vec3* p, int n, double dx, Vec3* out) {
  for (int i = 0; i < n; ++i) {
    out[i].x = p[i].x + dx;
    out[i].y = p[i].y;
    out[i].z = p[i].z * dx;
  }
}
// IR-LABEL: def shift(p: [Vec3{x: f64, y: f64, z: f64}] active, n: i64, dx: f64 active, out: [Vec3{x: f64, y: f64, z: f64}] active) -> ()
// IR:         store out[i].x = add(p[i].x, dx)
// IR:         store out[i].y = p[i].y
// IR:         store out[i].z = mul(p[i].z, dx)
// JSON:       "kind": "store"
// JSON:       "path": [
// JSON-NEXT:    {{[0-2]$}}
// JSON-NEXT:  ]
// CHECK-LABEL: void shift_grad(const Vec3* p, int n, double dx, Vec3* out, Vec3* d_p, double* d_dx, Vec3* d_out) {
// CHECK:         out[[[I:[a-z_0-9]+]]].x = {{[a-z_0-9]+}}.x + dx;
// CHECK:         out[[[I]]].z = {{[a-z_0-9]+}}.z * dx;
// CHECK:         for (long [[J:[a-z_0-9]+]] = n - 1; [[J]] >= 0; --[[J]]) {
// CHECK:           d_out[[[J]]].z = 0.0;
// CHECK:           d_p[[[J]]].z += dx * {{[a-z_0-9]+}}.z;
// CHECK:           d_out[[[J]]].x = 0.0;
// CHECK:           d_p[[[J]]].x += {{[a-z_0-9]+}}.x;

UNFAD_GRADIENT double frob(const std::vector<std::vector<double>>& A) {
  double s = 0.0;
  for (const auto& row : A)
    for (double a : row) s += a * a;
  return s;
}
// IR-LABEL: def frob(A: {{\[\[}}f64]] active) -> f64
// IR:         let row: {{\[}}f64] = A[i] in
// IR:         fold i_1 in [0, size(row))
// CHECK-LABEL: double frob_grad(const std::vector<std::vector<double>>& A, std::vector<std::vector<double>>& d_A) {
// CHECK:         auto& row = A[[[I:[a-z_0-9]+]]];
// CHECK:         const long [[N:[a-z_0-9]+]] = static_cast<long>(row.size());
// CHECK:         for (long [[J:[a-z_0-9]+]] = 0; [[J]] < [[N]]; ++[[J]]) {
// CHECK-NEXT:      const double a = row[[[J]]];
// CHECK-NEXT:      state_1 = state_1 + a * a;
// CHECK-NEXT:      d_A[[[I]]][[[J]]] += 2.0 * a;
// CHECK-NEXT:    }

UNFAD_GRADIENT double quad(const double A[3][3], const double* x) {
  double s = 0.0;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) s += x[i] * A[i][j] * x[j];
  return s;
}
// CHECK-LABEL: double quad_grad(const double (*A)[3], const double* x, double (*d_A)[3], double* d_x) {
// CHECK:         const double [[A:[a-z_0-9]+]] = A[i][j];
// CHECK:         d_A[i][j] += {{[a-z_0-9]+}} * {{[a-z_0-9]+}};
// CHECK:         [[ACC:d_x_acc(_[0-9]+)?]] = [[ACC]] + [[A]] * {{[a-z_0-9]+}};
// CHECK:         d_x[i] += [[ACC]];
