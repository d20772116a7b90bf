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
