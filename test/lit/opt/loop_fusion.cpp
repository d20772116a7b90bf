// loop-fusion: the forward loop and its adjoint sweep (a stateless loop
// over the same range, only adding into d_A and d_x) become one loop: the
// sweep's body goes into the loop, right before its result.
// RUN: %unfad --dump=reverse --dump-format=json %s -- -std=c++17 -I%unfad_include > %t.json
// RUN: %unfad-opt --passes=lower-parallel,partial-eval,split-struct-adds,dead-stores,dead-code --format=json %t.json > %t.in.json
// RUN: %unfad-opt --passes=lower-parallel %t.in.json | FileCheck %s --check-prefix=IN
// RUN: %unfad-opt --pass=loop-fusion %t.in.json | FileCheck %s
#include <unfad/unfad.h>

UNFAD_GRADIENT double least_squares(const double* A, const double* b, const double* x, int m, int n) {
  double s = 0.0;
  for (int i = 0; i < m; ++i) {
    double r = -b[i];
    for (int j = 0; j < n; ++j) r += A[i * n + j] * x[j];
    s += r * r;
  }
  return s;
}
// IN-LABEL: def least_squares$grad(
// IN:         fold i in [0, m) from {{[a-z_0-9]+}} = 0.0 ->
// IN:         fold {{i_[0-9]+}} in [0, m) from {{.*}} = () ->
// IN:           store d_x[{{.*}}] +=

// CHECK-LABEL: def least_squares$grad(
// CHECK:         fold i in [0, m) from {{[a-z_0-9]+}} = 0.0 ->
// CHECK:           let _i_sweep: () =
// CHECK:             store d_x[{{.*}}] +=
// CHECK:             store d_A[{{.*}}] +=
// CHECK-NOT:     fold i_{{[0-9]+}} in [0, m)
