// Registered derivatives of functions that write arrays: an output
// (lower_solve: its pullback sees the solution it left and consumes d_x) and
// an in/out array (relax, UNFAD_INOUT: one copy of x before the call, put
// back before its pullback, which sees x as the call found it). The
// pullbacks run in reverse order, the solve's after the copy is back; the
// reduction's adjoint is fused into its loop; nothing is computed twice.
// RUN: %unfad %s -- -std=c++17 > %t.out
// RUN: grep -v '^// *[A-Z-]*:' %t.out | FileCheck %s
#include <unfad/unfad.h>

#include <vector>

void lower_solve(const double* L, const double* b, double* x, int n);
void lower_solve_pullback(const double* L, const double* b, double* x, int n, double* d_L, double* d_b, double* d_x);
UNFAD_CUSTOM_GRADIENT(lower_solve, lower_solve_pullback);

void relax(UNFAD_INOUT double* y, double h, int n);
void relax_pullback(double* y, double h, int n, double* d_y, double* d_h);
UNFAD_CUSTOM_GRADIENT(relax, relax_pullback);

UNFAD_GRADIENT double residual(const double* L, const double* b, double h, int n) {
  std::vector<double> x(n);
  lower_solve(L, b, x.data(), n);
  relax(x.data(), h, n);
  double r = 0.0;
  for (int i = 0; i < n; ++i) r += x[i] * x[i];
  return r;
}

// CHECK-LABEL: double residual_grad(const double* L, const double* b, double h, int n, double* d_L, double* d_b, double* d_h) {
// CHECK-NEXT:    std::vector<double> x(n);
// CHECK-NEXT:    std::vector<double> d_x(n);
// CHECK-NEXT:    ::lower_solve(L, b, x.data(), n);
// CHECK-NEXT:    unfad::tape_buffer<double> [[SAVED:saved_x[_0-9]*]](n);
// CHECK-NEXT:    for (long [[K:k_[0-9]+]] = 0; [[K]] < n; ++[[K]]) {
// CHECK-NEXT:      [[SAVED]][[[K]]] = x[[[K]]];
// CHECK-NEXT:    }
// CHECK-NEXT:    ::relax(x.data(), h, n);
// CHECK-NOT:     ::relax(
// CHECK-NOT:     ::lower_solve(
// CHECK:           d_x[i] = 2.0 * t;
// CHECK:         x[{{k_[0-9]+}}] = [[SAVED]][{{k_[0-9]+}}];
// CHECK:         ::relax_pullback(x.data(), h, n, d_x.data(), &[[DH:[a-z_0-9]+]]);
// CHECK-NEXT:    ::lower_solve_pullback(L, b, x.data(), n, d_L, d_b, d_x.data());
// CHECK-NEXT:    *d_h += [[DH]];
// CHECK-NEXT:    return r;
