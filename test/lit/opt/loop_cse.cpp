// loop-cse: after fusion, the sweep recomputes the inner loop the forward
// half ran (the same fold up to bound names, nothing written in between):
// the second fold becomes the first one's variable. (The inner loop is a
// recurrence, so its own sweep carries state and does not fuse with the
// recomputation.)
// RUN: %unfad --dump=reverse --dump-format=json %s -- -std=c++17 -I%unfad_include > %t.json
// RUN: %unfad-opt --passes=lower-parallel,partial-eval,split-struct-adds,dead-stores,dead-code,loop-fusion,partial-eval,split-struct-adds,dead-stores,dead-code --format=json %t.json > %t.in.json
// RUN: %unfad-opt --passes=lower-parallel %t.in.json | FileCheck %s --check-prefix=IN
// RUN: %unfad-opt --pass=loop-cse %t.in.json | FileCheck %s
#include <unfad/unfad.h>

UNFAD_GRADIENT double least_squares(const double* A, const double* b, const double* x, int m, int n) {
  double s = 0.0;
  for (int i = 0; i < m; ++i) {
    double r = -b[i];
    for (int j = 0; j < n; ++j) r = 0.5 * r + A[i * n + j] * x[j];
    s += r * r;
  }
  return s;
}
// IN-LABEL: def least_squares$grad(
// IN:         let [[FIRST:r_[0-9]+]]: f64 = {{$}}
// IN-NEXT:      fold j in [0, n) from {{.*}} = r ->
// IN:         let {{r_[0-9]+}}: f64 = {{$}}
// IN-NEXT:      fold j_1 in [0, n) from {{.*}} = r ->

// CHECK-LABEL: def least_squares$grad(
// CHECK:         let [[FIRST:r_[0-9]+]]: f64 = {{$}}
// CHECK-NEXT:      fold j in [0, n) from {{.*}} = r ->
// CHECK:         let {{r_[0-9]+}}: f64 = [[FIRST]] in
// CHECK-NOT:     fold j_1 in [0, n)
