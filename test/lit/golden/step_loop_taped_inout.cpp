// A time-step loop updating an in/out state array in place through a helper
// with loops (the midpoint method), written as people write it. The forward
// sweep tapes each stage's read of the state per (step, element): two tapes
// of steps x (n - 1). The stages' running sum c depends only on x, so its
// sequence is the same in both stages and every step: one loop before the
// step loop tapes it once, in one tape of n - 1 both stages' transposes read
// at the element alone (ad/rev/invariant_state.cpp; it was two more tapes of
// steps x (n - 1), stored every step), and so do the stages' forward loops,
// which then carry no chain of dependent adds. No tape is written that the backward
// loop does not read (the cotangent of the
// step size h, summed over the loop and never used, is dropped with the
// tapes it read: opt/dead_loop_state.cpp); no whole-array copy of k1, k2 or
// mid is kept for after the backward loop (opt/dead_code.cpp). The
// backward loop runs only the stages' transposes: it reads no k1, k2, mid
// or y, so y keeps the forward sweep's final state: no per-step undo of y
// and no second run of midpoint at the end (ad/rev/inout_state.cpp).
// RUN: %unfad %s -- -std=c++17 -I%unfad_include > %t.out
// RUN: grep -v '^// *[A-Z-]*:' %t.out | FileCheck %s
#include <unfad/unfad.h>

#include <vector>

// dy[0] = x[0], dy[i] = (x[1] + ... + x[i]) y[i-1]
static void rhs(const double* x, const double* y, double* dy, int n) {
  dy[0] = x[0];
  double c = 0.0;
  for (int i = 1; i < n; ++i) {
    c += x[i];
    dy[i] = c * y[i - 1];
  }
}

UNFAD_GRADIENT_WRT(x, y) void midpoint(const double* x, int n, int s, double* y) {
  std::vector<double> k1(n), k2(n), mid(n);
  const double h = 1.0 / s;
  for (int step = 0; step < s; ++step) {
    rhs(x, y, k1.data(), n);
    for (int i = 0; i < n; ++i) mid[i] = y[i] + 0.5 * h * k1[i];
    rhs(x, mid.data(), k2.data(), n);
    for (int i = 0; i < n; ++i) y[i] += h * k2[i];
  }
}
// CHECK-LABEL: void midpoint_grad(
// CHECK-NOT:     tape_buffer
// The running sum, once, before the step loop.
// CHECK:         unfad::tape_buffer<double> [[C:tape_state[_0-9]*]]([[N:n_[0-9]+]]);
// CHECK-NEXT:    double [[CS:[a-z_0-9]+]] = 0.0;
// CHECK-NEXT:    for (long [[CI:[a-z_0-9]+]] = 1; [[CI]] < n; ++[[CI]]) {
// CHECK-NEXT:      [[C]][[[CI]] - 1] = [[CS]];
// CHECK-NEXT:      [[CS]] = [[CS]] + x[[[CI]]];
// CHECK-NEXT:    }
// CHECK-NEXT:    unfad::tape_buffer<double> [[Y1:tape_t[_0-9]*]]([[S:n_[0-9]+]] * [[N]]);
// CHECK-NEXT:    unfad::tape_buffer<double> [[M2:tape_t[_0-9]*]]([[S]] * [[N]]);
// CHECK-NOT:     tape_buffer
// CHECK-NOT:     saved_
// The forward loop: each stage tapes the state it reads, and reads the
// running sum from its tape (no chain of dependent adds, no sum carried).
// CHECK:         for (long [[STEP:[a-z_0-9]+]] = 0; [[STEP]] < s; ++[[STEP]]) {
// CHECK:             for (long [[F1:[a-z_0-9]+]] = 1; [[F1]] < n; ++[[F1]]) {
// CHECK-NEXT:          const double [[S1:[a-z_0-9]+]] = [[C]][[[F1]] - 1];
// CHECK-NEXT:          const double {{c_[0-9]+}} = [[S1]] + x[[[F1]]];
// CHECK:               const double [[YR:t_[0-9]+]] = y[
// CHECK:               [[Y1]][[[STEP]] * [[N]] + {{.*}}] = [[YR]];
// CHECK-NOT:           {{state[_0-9]*}} = {{state[_0-9]*}} +
// CHECK:             for (long [[F2:[a-z_0-9]+]] = 1; [[F2]] < n; ++[[F2]]) {
// CHECK-NEXT:          const double [[S2:[a-z_0-9]+]] = [[C]][[[F2]] - 1];
// CHECK:               const double [[MR:t_[0-9]+]] = mid[
// CHECK:               [[M2]][[[STEP]] * [[N]] + {{.*}}] = [[MR]];
// CHECK:             y[{{.*}}] += h * k2[
// The backward loop: transposes only, from the tapes; no array of the
// primal is read or put back; both stages read the one running-sum tape at
// the element.
// CHECK:         for (long [[SB:[a-z_0-9]+]] = s - 1; [[SB]] >= 0; --[[SB]]) {
// CHECK-NOT:       {{[ (]}}y[
// CHECK-NOT:       {{[ (]}}k1[
// CHECK-NOT:       {{[ (]}}k2[
// CHECK-NOT:       {{[ (]}}mid[
// CHECK:             = [[C]][[[I2:[a-z_0-9]+]] - 1];
// CHECK-NOT:       {{[ (]}}y[
// CHECK-NOT:       {{[ (]}}mid[
// CHECK:             [[M2]][[[SB]] * [[N]] +
// CHECK-NOT:       {{[ (]}}y[
// CHECK-NOT:       {{[ (]}}mid[
// CHECK:             = [[C]][[[I1:[a-z_0-9]+]] - 1];
// CHECK-NOT:       {{[ (]}}y[
// CHECK:             [[Y1]][[[SB]] * [[N]] +
// CHECK-NOT:       {{[ (]}}y[
// CHECK-NOT:     midpoint(
// CHECK:           d_x[0] += {{.*}};
// CHECK-NEXT:    }
// CHECK-NEXT:  }
// CHECK-NEXT:  // unfad:end midpoint_grad
