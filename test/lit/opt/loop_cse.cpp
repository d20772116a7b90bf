// loop-cse: after fusion, the sweep recomputes the inner loop the forward
// half ran, and tapes its states (the sweep of `r = 0.5 * sin(r) + ...`
// reads cos of each): the later, taping fold computes the same value as
// the earlier pure one (up to bound names, nothing written in between), so
// it replaces it and the value is computed once. (A recomputation the sweep
// needs nothing from is dead code before this: a linear recurrence's.)
// RUN: %unfad --dump=reverse --dump-format=json %s -- -std=c++17 -I%unfad_include > %t.json
// RUN: %unfad-opt --passes=lower-parallel,partial-eval,split-struct-adds,dead-stores,dead-code,loop-fusion,partial-eval,split-struct-adds,dead-stores,dead-code --format=json %t.json > %t.in.json
// RUN: %unfad-opt --passes=lower-parallel %t.in.json | FileCheck %s --check-prefix=IN
// RUN: %unfad-opt --pass=loop-cse %t.in.json | FileCheck %s
#include <unfad/unfad.h>

#include <cmath>

UNFAD_GRADIENT double least_squares(const double* A, const double* b, const double* x, int m, int n) {
  double s = 0.0;
  for (int i = 0; i < m; ++i) {
    double r = -b[i];
    for (int j = 0; j < n; ++j) r = 0.5 * std::sin(r) + A[i * n + j] * x[j];
    s += r * r;
  }
  return s;
}
// IN-LABEL: def least_squares$grad(
// IN:         let {{r_[0-9]+}}: f64 = {{$}}
// IN-NEXT:      fold j in [0, n) from {{.*}} = r ->
// IN:         let [[TAPE:tape_state[0-9_]*]]: [f64] = scratch
// IN-NEXT:    let {{r_[0-9]+}}: f64 = {{$}}
// IN-NEXT:      fold j_1 in [0, n) from {{.*}} = r ->
// IN-NEXT:        store [[TAPE]][j_1]

// CHECK-LABEL: def least_squares$grad(
// CHECK-NOT:     fold j in [0, n)
// CHECK:         let [[TAPE:tape_state[0-9_]*]]: [f64] = scratch
// CHECK-NEXT:    let [[R:r_[0-9]+]]: f64 = {{$}}
// CHECK-NEXT:      fold j_1 in [0, n) from {{.*}} = r ->
// CHECK-NEXT:        store [[TAPE]][j_1]
// CHECK-NOT:     fold j in [0, n)
// CHECK:         mul([[R]], [[R]])
