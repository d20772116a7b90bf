// An undo log sized by counting an inner loop's stores (a triangular update
// `q[row] += l[li++] * q[col]`, gmm's Cholesky-factor product) inside an
// outer loop: the count is a scalar fold on loop-invariant values, so
// hoist-invariants moves it before the outer loop (which computes each
// iteration's adjoint right after its value) and the log is allocated once
// there, not once per outer iteration.
// RUN: %unfad %s -- -std=c++17 -I%unfad_include > %t.out
// RUN: grep -v '^// *[A-Z-]*:' %t.out | FileCheck %s
#include <unfad/unfad.h>
#include <vector>
UNFAD_GRADIENT double tri(const double* l, const double* x, int n, int d) {
  std::vector<double> q(d);
  double total = 0.0;
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < d; ++j) q[j] = x[i * d + j];
    int li = 0;
    for (int col = 0; col < d; ++col)
      for (int row = col + 1; row < d; ++row) q[row] += l[li++] * q[col];
    for (int j = 0; j < d; ++j) total += q[j] * q[j];
  }
  return total;
}
// CHECK-LABEL: double tri_grad(
// CHECK:         long [[N:stores[_0-9]*]] = 0;
// CHECK-NEXT:    for (long {{.*}} = 0; {{.*}} < d; ++{{.*}}) {
// CHECK:         unfad::tape_buffer<long> log_q_index([[N]]);
// CHECK-NEXT:    unfad::tape_buffer<double> log_q_old([[N]]);
// CHECK:         for (long i = 0; i < n; ++i) {
// CHECK-NOT:       tape_buffer
// CHECK:         return
