// A local array of arrays of constant shape is flat and row-major in the
// generated code (M[i][j] is S[i * 3 + j]). A loop nested in another that
// fills it copies nothing per outer iteration: the outer loop never reads the
// array; nor is a copy kept for after the backward sweep, at the end of the
// function, where the array dies (opt/dead_code.cpp).
// RUN: %unfad %s -- -std=c++17 -I%unfad_include > %t.out
// RUN: grep -v '^// *[A-Z-]*:' %t.out | FileCheck %s
#include <unfad/unfad.h>
#include <array>
#include <cmath>
UNFAD_GRADIENT double rot(double a, double b, const double* v) {
  double R[3][3] = {{std::cos(a), -std::sin(a), 0}, {std::sin(a), std::cos(a), 0}, {0, 0, 1}};
  std::array<std::array<double, 3>, 3> S{};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) S[i][j] = R[i][j] * b + (i == j ? 1.0 : 0.0);
  double s = 0;
  for (int i = 0; i < 3; ++i) {
    double w = 0;
    for (int j = 0; j < 3; ++j) w += S[i][j] * v[j];
    s += w * w;
  }
  return s + S.size() + S[0].size();
}
// CHECK-LABEL: double rot_grad(double a, double b, const double* v, double* d_a, double* d_b, double* d_v) {
// CHECK:         std::array<double, 9> R{};
// CHECK:         std::array<double, 9> S{};
// CHECK-NOT:     saved_S
// CHECK:         S[{{[a-z_0-9]+}}] = R[{{[a-z_0-9]+}}] * b + {{[a-z_0-9]+}};
// CHECK-NOT:     saved_S
// CHECK:         return result;
