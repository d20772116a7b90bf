// Helpers returning arrays by value are lowered into their callers
// (lib/frontend/returned_arrays.cpp): (1) a std::array a helper returns in a
// loop body is a stack std::array of the caller, as are the locals passed to
// `const std::array&` helpers (no std::vector, no heap allocation in the
// loop); (2) the local std::vector a helper fills and returns becomes the
// caller's `y` itself (no copy), allocated where the helper allocated it.
// RUN: %unfad %s -- -std=c++17 -I%unfad_include > %t.out
// RUN: grep -v '^// *[A-Z-]*:' %t.out | FileCheck %s
#include <unfad/unfad.h>
#include <array>
#include <cstddef>
#include <vector>
static std::array<double, 3> cross(const std::array<double, 3>& a, const std::array<double, 3>& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
static double norm2(const std::array<double, 3>& a) { return a[0] * a[0] + a[1] * a[1] + a[2] * a[2]; }
UNFAD_GRADIENT double torque(const double* r, const double* f, int n) {
  double e = 0.0;
  for (int i = 0; i < n; ++i) {
    const std::array<double, 3> ri{r[3 * i], r[3 * i + 1], r[3 * i + 2]};
    const std::array<double, 3> fi{f[3 * i], f[3 * i + 1], f[3 * i + 2]};
    e += norm2(cross(ri, fi));
  }
  return e;
}
// CHECK-LABEL: double torque_grad(
// CHECK-NOT:     std::vector
// CHECK-NOT:     new
// CHECK:         for (long i = 0; i < n; ++i) {
// CHECK-NEXT:      std::array<double, 3> ri{};
// CHECK-NOT:     std::vector
// CHECK-NOT:     new
// CHECK:           std::array<double, 3> fi{};
// CHECK-NOT:     std::vector
// CHECK-NOT:     new
// CHECK:           std::array<double, 3> [[C:[a-z_0-9]+]]{};
// CHECK-NOT:     std::vector
// CHECK-NOT:     new
// CHECK:         // unfad:end torque_grad

static std::vector<double> scaled(const std::vector<double>& v, double s) {
  std::vector<double> r(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) r[i] = s * v[i];
  return r;
}
UNFAD_GRADIENT double scaled_sq(const std::vector<double>& x, double s) {
  auto y = scaled(x, s);
  double t = 0.0;
  for (double v : y) t += v * v;
  return t;
}
// CHECK-LABEL: double scaled_sq_grad(
// CHECK:         std::vector<double> y([[N:[a-z_0-9]+]]);
// CHECK-NEXT:    std::vector<double> d_y([[N]]);
// CHECK-NOT:     std::vector<double> r
// CHECK:           y[i] = s * x[i];
// CHECK:         // unfad:end scaled_sq_grad
