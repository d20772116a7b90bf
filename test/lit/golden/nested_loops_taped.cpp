// A time-stepping loop whose step runs inner loops over the state (explicit
// Euler on a ring): the forward pass tapes, per (step, element), the reads
// the inner loops' partials use (the sin's argument), in tapes of
// steps x n allocated once before the loop, so the backward loop replays
// only the inner loops' reverse passes from them: it contains no forward
// inner loop (no flux recomputed, no sin of a recomputed state), and the
// reads only a sum uses (flux[i] - flux[i-1]) leave no tape. (The default;
// the flag says it.)
// RUN: %unfad %s --tape-nested-loops -- -std=c++17 -I%unfad_include > %t.out
// RUN: grep -v '^// *[A-Z-]*:' %t.out | FileCheck %s
#include <unfad/unfad.h>

#include <cmath>
#include <vector>

UNFAD_GRADIENT double heat(const double* k, const double* u0, int n, int steps) {
  std::vector<double> u(u0, u0 + n), flux(n);
  for (int s = 0; s < steps; ++s) {
    for (int i = 0; i < n; ++i) flux[i] = k[i] * std::sin(u[(i + 1) % n] - u[i]);
    for (int i = 0; i < n; ++i) u[i] += 0.1 * (flux[i] - flux[(i + n - 1) % n]);
  }
  double e = 0.0;
  for (int i = 0; i < n; ++i) e += u[i] * u[i];
  return e;
}
// CHECK-LABEL: double heat_grad(
// CHECK:         unfad::tape_buffer<double> [[NEXT:tape_t[_0-9]*]]([[STEPS:n_[0-9]+]] * [[N:n_[0-9]+]]);
// CHECK-NEXT:    unfad::tape_buffer<double> [[HERE:tape_t[_0-9]*]]([[STEPS]] * [[N]]);
// (u is not restored per step: nothing in the sweep reads it; dead-arrays)
// CHECK-NOT:     tape_u_old
// CHECK-NOT:     tape_t
// CHECK:         for (long [[S:[a-z_0-9]+]] = 0; [[S]] < steps; ++[[S]]) {
// CHECK:             const double [[A:t_[0-9]+]] = u[(
// CHECK:             const double [[B:t_[0-9]+]] = u[
// CHECK:             flux[{{.*}}std::sin([[A]] - [[B]]);
// CHECK:             [[NEXT]][[[S]] * [[N]] + [[I:[a-z_0-9]+]]] = [[A]];
// CHECK:             [[HERE]][[[S]] * [[N]] + [[I]]] = [[B]];
// The backward loop over the steps: no flux, no u read, sin and cos only of
// the taped difference.
// CHECK:         for (long [[SB:[a-z_0-9]+]] = steps - 1; [[SB]] >= 0; --[[SB]]) {
// CHECK-NOT:       {{[ (]}}flux[
// CHECK:             d_flux[(
// CHECK-NOT:       {{[ (]}}flux[
// CHECK:           for (long [[IB:[a-z_0-9]+]] = n - 1; [[IB]] >= 0; --[[IB]]) {
// CHECK-NEXT:        const double [[D:t_[0-9]+]] = [[NEXT]][[[SB]] * [[N]] + [[IB]]] - [[HERE]][[[SB]] * [[N]] + [[IB]]];
// CHECK-NOT:         {{[ (]}}flux[
// CHECK-NOT:         = u[
// CHECK:             const double {{.*}} = std::cos([[D]]) *
// CHECK:             d_k[[[IB]]] += std::sin([[D]]) *
// CHECK:           }
// CHECK-NEXT:    }
// CHECK-NOT:     std::sin
// CHECK:         return e;
