// A loop whose inner loop rewrites elements of a local array the loop also
// reads: the forward loop pushes each overwritten element and its index on
// one undo log, allocated once before the loop and sized from the trip
// counts (n * 3 here); the log's top is marked at each iteration's start and
// each backward iteration pops its own entries, last first. No copy of the
// whole array per iteration, and no allocation inside any loop. That is
// the loop's J^T when nested loops are not taped per step
// (--tape-nested-loops=false). By default they are (nested_tapes.cpp; the
// choice of `u` is an `if` over integers, recomputed where needed): the
// forward loop tapes each sin's argument per (v, i) and the backward loop
// reads it, with no undo log and no forward run of the inner loop.
// RUN: %unfad --tape-nested-loops=false %s -- -std=c++17 -I%unfad_include > %t.out
// RUN: grep -v '^// *[A-Z-]*:' %t.out | FileCheck %s
// RUN: %unfad %s -- -std=c++17 -I%unfad_include > %t.taped
// RUN: grep -v '^// *[A-Z-]*:' %t.taped | FileCheck %s --check-prefix=TAPED
#include <unfad/unfad.h>

#include <cmath>
#include <vector>

UNFAD_GRADIENT double nested_accumulation(const double* x, int n) {
  std::vector<double> pos(3 * n, 0.0);
  for (int v = 0; v < n; ++v) {
    const int u = v > 0 ? v - 1 : 0;
    for (int i = 0; i < 3; ++i) pos[3 * v + i] += x[3 * v + i] + 0.5 * std::sin(pos[3 * u + i]);
  }
  double e = 0.0;
  for (int k = 0; k < 3 * n; ++k) e += pos[k] * pos[k];
  return e;
}
// CHECK-LABEL: double nested_accumulation_grad(
// CHECK-NOT:     for (
// CHECK:         const long [[SIZE:log_pos_size]] = [[N:n_[0-9]+]] * 3;
// CHECK-NEXT:    unfad::tape_buffer<long> [[IDX:log_pos_index]]([[SIZE]]);
// CHECK-NEXT:    unfad::tape_buffer<double> [[OLD:log_pos_old]]([[SIZE]]);
// CHECK-NEXT:    std::array<long, 1> [[TOP:log_pos_top]]{};
// CHECK-NEXT:    unfad::tape_buffer<long> [[MARK:log_pos_mark]]([[N]]);
// CHECK-NEXT:    [[TOP]][0] = 0;
// CHECK-NEXT:    for (long [[V:v]] = 0; [[V]] < n; ++[[V]]) {
// CHECK-NEXT:      const long [[T:top_pos]] = [[TOP]][0];
// CHECK-NEXT:      [[MARK]][[[V]]] = [[T]];
// CHECK-NOT:       new
// CHECK:           for (long [[I:i]] = 0; [[I]] < 3; ++[[I]]) {
// CHECK:             const double [[O:old_pos]] = pos[[[K:t_[0-9]+]]];
// CHECK-NEXT:        const long [[AT:log_at]] = [[TOP]][0];
// CHECK-NEXT:        [[IDX]][[[AT]]] = [[K]];
// CHECK-NEXT:        [[OLD]][[[AT]]] = [[O]];
// CHECK-NEXT:        [[TOP]][0] = [[AT]] + 1;
// CHECK-NEXT:        pos[[[K]]] +=
// CHECK-NOT:     new
// CHECK:         std::array<long, 3> tape_pos_index{};
// CHECK-NEXT:    std::array<double, 3> tape_pos_old{};
// CHECK-NEXT:    for (long [[W:v_[0-9]+]] = n - 1; [[W]] >= 0; --[[W]]) {
// CHECK-NEXT:      const long [[LT:log_top]] = [[TOP]][0];
// CHECK-NEXT:      const long [[FROM:log_from]] = [[MARK]][[[W]]];
// CHECK-NEXT:      for (long [[Q:q]] = [[LT]] - 1; [[Q]] >= [[FROM]]; --[[Q]]) {
// CHECK-NEXT:        const long [[KK:k]] = [[IDX]][[[Q]]];
// CHECK-NEXT:        pos[[[KK]]] = [[OLD]][[[Q]]];
// CHECK-NEXT:      }
// CHECK-NEXT:      [[TOP]][0] = [[FROM]];
// CHECK-NOT:       new
// CHECK-NOT:       * t]
// CHECK:         return e;

// TAPED-LABEL: double nested_accumulation_grad(
// TAPED-NOT:     log_
// TAPED:         unfad::tape_buffer<double> [[TAPE:tape_t[_0-9]*]]([[N:n_[0-9]+]] * 3);
// TAPED:         for (long [[V:v]] = 0; [[V]] < n; ++[[V]]) {
// TAPED:           for (long [[I:i]] = 0; [[I]] < 3; ++[[I]]) {
// TAPED:             const double [[A:t_[0-9]+]] = pos[3 * {{u[_0-9]*}} + [[I]]];
// TAPED:             [[TAPE]][[[V]] * 3 + [[I]]] = [[A]];
// TAPED:         for (long [[W:v_[0-9]+]] = n - 1; [[W]] >= 0; --[[W]]) {
// TAPED-NOT:       std::sin
// TAPED:             std::cos([[TAPE]][[[W]] * 3 + {{i_[0-9]+}}])
// TAPED-NOT:     log_
// TAPED:         return e;
