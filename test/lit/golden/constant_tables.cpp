// A constant table at namespace scope (Gauss-Legendre weights) and a table
// of rows in a namespace are read by name in the generated code, as the
// user wrote them: no copy of the table, no adjoint for it, and the
// backward sweep reads the same `kWeights[q]`.
// RUN: %unfad %s -- -std=c++17 > %t.out
// RUN: grep -v '^// *[A-Z-]*:' %t.out | FileCheck %s
#include <unfad/unfad.h>

#include <cmath>

static constexpr double kNodes[3] = {-0.7745966692414834, 0.0, 0.7745966692414834};
static constexpr double kWeights[3] = {0.5555555555555556, 0.8888888888888888, 0.5555555555555556};
namespace mix {
constexpr double m[2][3] = {{1.0, 0.5, 0.0}, {0.0, 0.5, 1.0}};
}

UNFAD_GRADIENT double gauss(double k, const double* c) {
  double s = 0.0;
  for (int q = 0; q < 3; ++q) s += kWeights[q] * std::exp(-k * kNodes[q] * kNodes[q]) * (mix::m[0][q] * c[0] + mix::m[1][q] * c[1]);
  return s;
}

// CHECK-LABEL: double gauss_grad(double k, const double* c, double* d_k, double* d_c) {
// CHECK-NOT:     std::vector
// CHECK-NOT:     {{(kNodes|kWeights|m)\[0\] = }}
// CHECK:         for (long q = 0; q < 3; ++q) {
// CHECK-NEXT:      const double [[N:t_[0-9]+]] = kNodes[q];
// CHECK:           ::mix::m[0][q] * c[0] + ::mix::m[1][q] * c[1];
// CHECK:           kWeights[q] *
// CHECK:         for (long [[Q:q_[0-9]+]] = 0; [[Q]] < 3; ++[[Q]]) {
// CHECK-NEXT:      const double {{t_[0-9]+}} = kWeights[[[Q]]];
// CHECK:           = ::mix::m[1][[[Q]]];
// CHECK-DAG:     d_c[1] +=
// CHECK-DAG:     d_c[0] +=
// CHECK:       // unfad:end gauss_grad
