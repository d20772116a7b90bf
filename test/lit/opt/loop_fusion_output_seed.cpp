// loop-fusion with a result stored to an output (GradBench's `*err = cost`):
// between the loop and its sweep sit the store of the value and the load of
// its seed `d_err[0]`, which the sweep reads. The load does not depend on
// the loop, so it moves before it, and the loop and the sweep become one.
// RUN: %unfad --dump=reverse --dump-format=json %s -- -std=c++17 -I%unfad_include > %t.json
// RUN: %unfad-opt --passes=lower-parallel,partial-eval,split-struct-adds,dead-stores,dead-code --format=json %t.json > %t.in.json
// RUN: %unfad-opt --passes=lower-parallel %t.in.json | FileCheck %s --check-prefix=IN
// RUN: %unfad-opt --pass=loop-fusion %t.in.json | FileCheck %s
#include <unfad/unfad.h>

UNFAD_GRADIENT void squares(const double* x, int n, double* err) {
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += x[i] * x[i];
  *err = s;
}
// IN-LABEL: def squares$grad(
// IN:         fold i in [0, n) from
// IN:         store err[0] =
// IN:         let [[SEED:[a-z_0-9]+]]: f64 = d_err[0]
// IN:         fold {{i_[0-9]+}} in [0, n) from {{.*}} = () ->
// IN:           store d_x[{{.*}}] +=

// CHECK-LABEL: def squares$grad(
// CHECK:         let [[SEED:[a-z_0-9]+]]: f64 = d_err[0]
// CHECK-NEXT:    let {{.*}} = {{$}}
// CHECK-NEXT:      fold i in [0, n) from
// CHECK:           let _i_sweep: () =
// CHECK:             store d_x[{{.*}}] +=
// CHECK:         store err[0] =
// CHECK-NOT:     fold
