// promote-accumulators: d_p[i] += d_d inside the loop over j (an index that
// does not change with j, in an array the loop only adds into) becomes a
// register carried by the loop, added into d_p[i] once after it, under a
// guard for an empty loop.
// RUN: %unfad --dump=reverse --dump-format=json %s -- -std=c++17 -I%unfad_include > %t.json
// RUN: %unfad-opt --passes=lower-parallel,partial-eval,split-struct-adds,dead-stores,dead-code,loop-fusion,partial-eval,split-struct-adds,dead-stores,dead-code,loop-fusion,partial-eval,split-struct-adds,dead-stores,dead-code,loop-cse,single-use --format=json %t.json > %t.in.json
// RUN: %unfad-opt --passes=lower-parallel %t.in.json | FileCheck %s --check-prefix=IN
// RUN: %unfad-opt --pass=promote-accumulators %t.in.json | FileCheck %s
#include <unfad/unfad.h>

UNFAD_GRADIENT double pairs(const double* p, int n) {
  double e = 0.0;
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) {
      double d = p[i] - p[j];
      e += d * d;
    }
  return e;
}
// IN-LABEL: def pairs$grad(
// IN:         fold j_1 in [t, n) from state_1_1 = state ->
// IN:           store d_p[i] += d_d in

// CHECK-LABEL: def pairs$grad(
// CHECK:         fold j_{{[0-9]+}} in [t, n) from [[S:state_[0-9_]+]] = (state, 0.0) ->
// CHECK:           let d_p_acc: f64 = [[S]]#1 in
// CHECK-NOT:       store d_p[i]
// CHECK:           let d_p_acc_1: f64 = add(d_p_acc, d_d) in
// CHECK:           (e{{(_[0-9]+)?}}, d_p_acc_1)
// CHECK:         if lt(t, n) then
// CHECK-NEXT:      let {{.*}} = store d_p[i] += {{.*}}#1 in

// When the register's stores are the loop's only ones into the array, it
// starts at the element and is stored back (the additions in the program's
// order: the same sum to the last bit). Here the backward sweep of the inner
// loop adds only into d_x[i]: the register is read from d_x[i] (0 if the loop
// is empty) and stored back under the guard.
UNFAD_GRADIENT double weighted(const double* x, int n) {
  double s = 0.0;
  for (int i = 0; i < n; ++i)
    for (int j = i; j < n; ++j) s += x[i] * x[i] * j;
  return s;
}
// CHECK-LABEL: def weighted$grad(
// CHECK:         let [[START:d_x_acc[_0-9]*]]: f64 =
// CHECK-NEXT:      if lt([[I:[a-z_0-9]+]], n) then
// CHECK-NEXT:        d_x[[[I]]]
// CHECK-NEXT:      else
// CHECK-NEXT:        0.0
// CHECK:         fold {{.*}} in [[[I]], n) from {{.*}} = ({{.*}}, [[START]]) ->
// CHECK-NOT:       store d_x[
// CHECK:         if lt([[I]], n) then
// CHECK-NEXT:      let {{.*}} = store d_x[[[I]]] = {{.*}}#1 in

// A value stored into the element just before the loop is the register's
// start instead, and the store is the one after the loop, unguarded (y[i] = 0,
// then y[i] += ...: the forward sweep).
UNFAD_GRADIENT void matvec(const double* A, const double* x, int n, double* y) {
  for (int i = 0; i < n; ++i) {
    y[i] = 0.0;
    for (int j = 0; j < n; ++j) y[i] += A[i * n + j] * x[j];
  }
}
// CHECK-LABEL: def matvec$grad(
// CHECK-NOT:     store y[{{.*}}] = 0.0
// CHECK:         let [[START:y_acc[_0-9]*]]: f64 = 0.0 in
// CHECK:         fold j in [0, n) from {{.*}} = ((), [[START]]) ->
// CHECK-NOT:       store y[
// CHECK-NOT:     if lt(0, n)
// CHECK:         store y[i] = {{.*}}#1
