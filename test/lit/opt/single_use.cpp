// single-use: temporaries (t_*, d_*) used once in the same block are
// substituted into their use; named source variables (r) stay.
// RUN: %unfad --dump=reverse --dump-format=json %s -- -std=c++17 -I%unfad_include > %t.json
// RUN: %unfad-opt --passes=lower-parallel,partial-eval,split-struct-adds,dead-stores,dead-code --format=json %t.json > %t.in.json
// RUN: %unfad-opt --passes=lower-parallel %t.in.json | FileCheck %s --check-prefix=IN
// RUN: %unfad-opt --pass=single-use %t.in.json | FileCheck %s
#include <unfad/unfad.h>

UNFAD_GRADIENT double single(double x, double y) {
  double r = x * y + y;
  return r * x;
}
// IN-LABEL: def single$grad(
// IN:         let t: f64 = mul(x, y) in
// IN-NEXT:    let r: f64 = add(t, y) in

// CHECK-LABEL: def single$grad(
// CHECK-NOT:     let t: f64
// CHECK:         let r: f64 = add(mul(x, y), y) in
