// hoist-invariants: the inner loop's tape (a scratch buffer of a size that
// does not change with i) is allocated once before the loop, and integer
// arithmetic on invariant values (i * n for the inner loop) moves out of
// the inner loop.
// RUN: %unfad --dump=reverse --dump-format=json %s -- -std=c++17 -I%unfad_include > %t.json
// RUN: %unfad-opt --passes=lower-parallel,partial-eval,split-struct-adds,dead-stores,dead-code --format=json %t.json > %t.in.json
// RUN: %unfad-opt --passes=lower-parallel %t.in.json | FileCheck %s --check-prefix=IN
// RUN: %unfad-opt --pass=hoist-invariants %t.in.json | FileCheck %s
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
// IN:         fold [[I:i_[0-9]+]] in [0, m)
// IN-NEXT:      let
// IN:           let tape_state: [f64] = scratch f64[{{.*}}] in
// IN-NEXT:      let {{.*}} =
// IN-NEXT:        fold j_1 in [0, n)
// IN-NEXT:          let {{.*}} store tape_state
// IN-NEXT:          let {{.*}}: i64 = mul([[I]], n) in

// CHECK-LABEL: def least_squares$grad(
// CHECK:         let tape_state: [f64] = scratch f64[{{.*}}] in
// CHECK-NEXT:    let {{.*}} =
// CHECK-NEXT:      fold [[I:i_[0-9]+]] in [0, m)
// CHECK-NOT:         scratch
// CHECK:             let {{.*}}: i64 = mul([[I]], n) in
// CHECK-NEXT:        let {{.*}} =
// CHECK-NEXT:          fold j_1 in [0, n)
// CHECK-NEXT:            let {{.*}} store tape_state
// CHECK-NOT:             mul([[I]], n)
// CHECK:               in
