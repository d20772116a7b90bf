// Loop state that the index alone determines becomes a function of the
// index before reverse mode (lib/parallel/index_state.cpp): `prev = x[i]`
// in a loop that writes no doubles is `i == lo ? x[0] : x[i - 1]` at the top
// of each iteration and `lo < n ? x[n - 1] : x[0]` after the loop, and the
// loop carries only the sum. A loop that writes doubles keeps `prev = y[i]`
// as state: the pass does not reason about which elements a loop's stores
// change, only about the types of the arrays it writes.
// RUN: %unfad %s --dump=ir -- -std=c++17 -I%unfad_include | FileCheck %s
#include <unfad/unfad.h>

#include <cmath>

UNFAD_GRADIENT double differences(const double* x, int lo, int n) {
  double s = 0.0;
  double prev = x[0];
  for (int i = lo; i < n; ++i) {
    s += (x[i] - prev) * std::cos(prev);
    prev = x[i];
  }
  return s + prev;
}
// CHECK-LABEL: def differences(
// CHECK:         let [[INIT:prev]]: f64 = x[0] in
// CHECK:           fold i in [lo, n) from [[S:state_[0-9]+]] = s ->
// CHECK-NEXT:        let [[P:prev_1_from_index]]: f64 =
// CHECK-NEXT:          if eq(i, lo) then
// CHECK-NEXT:            [[INIT]]
// CHECK-NEXT:          else
// CHECK-NEXT:            let [[Q:[a-z_0-9]+]]: f64 = x[sub(i, 1)] in
// CHECK-NEXT:            [[Q]]
// CHECK-NEXT:        in
// CHECK-NEXT:        let {{state[_0-9]*}}: (f64, f64) = ([[S]], [[P]]) in
// CHECK-NOT:         x[i] in
// CHECK:           let prev_1_last: f64 =
// CHECK-NEXT:        if lt(lo, n) then
// CHECK-NEXT:          let [[L:[a-z_0-9]+]]: f64 = x[sub(n, 1)] in
// CHECK-NEXT:          [[L]]
// CHECK-NEXT:        else
// CHECK-NEXT:          [[INIT]]

UNFAD_GRADIENT double smooth(double* y, int n) {
  double prev = y[0];
  for (int i = 1; i < n; ++i) {
    y[i] = 0.5 * (y[i] + prev);
    prev = y[i];
  }
  return prev;
}
// CHECK-LABEL: def smooth(
// CHECK:         fold i in [1, n) from state = prev ->
// CHECK-NOT:       from_index
// CHECK:           y[i]
// CHECK-NOT:       from_index
// CHECK:         in

// A costly next value (an exp) is carried, not computed twice.
UNFAD_GRADIENT double window(const double* x, int n) {
  double s = 0.0;
  double prev = 1.0;
  for (int i = 0; i < n; ++i) {
    const double e = std::exp(x[i]);
    s += e * prev;
    prev = e;
  }
  return s;
}
// CHECK-LABEL: def window(
// CHECK:         fold i in [0, n) from state = (s, prev) ->
// CHECK-NOT:       from_index
// CHECK:           (s_2, prev_2)
